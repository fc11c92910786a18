import type { DiffLine } from '@aitools/contracts/editing';

/** The line diff of two saved versions (content/revisions.ts on the server), as the posts and tools editors show it. */
export function VersionDiff({
  caption,
  label,
  lines,
  whole = false,
}: {
  caption: string;
  label: string;
  lines: DiffLine[];
  /** The server found too many changes to pair lines up: the changed part is shown removed, then added. */
  whole?: boolean;
}) {
  return (
    <figure>
      <figcaption>{caption}</figcaption>
      {whole && (
        <p className="muted">
          Too many lines changed to compare one by one: the old text is shown removed and the new one added.
        </p>
      )}
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
