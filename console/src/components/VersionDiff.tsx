import type { DiffLine } from '@aitools/contracts/editing';

/** The line diff of two saved versions (content/revisions.ts on the server), as the posts and tools editors show it. */
export function VersionDiff({ caption, label, lines }: { caption: string; label: string; lines: DiffLine[] }) {
  return (
    <figure>
      <figcaption>{caption}</figcaption>
      <pre className="diff" aria-label={label}>
        {lines.map((l, i) => (
          <span key={i} className={l.op === '+' ? 'diff__add' : l.op === '-' ? 'diff__del' : undefined}>
            {`${l.op} ${l.text}\n`}
          </span>
        ))}
      </pre>
    </figure>
  );
}
