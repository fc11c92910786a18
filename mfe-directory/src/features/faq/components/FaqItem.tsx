import type { ReactNode } from 'react';

/**
 * One question of an FAQ: a native disclosure, so it opens and closes by click or key before and without script,
 * and React keeps no state for it. Entries that share a `group` form an accordion: the browser keeps at most one of
 * them open.
 */
export function FaqItem({ question, group, children }: { question: string; group?: string; children: ReactNode }) {
  return (
    <li className="dir-faq__item">
      <details name={group}>
        <summary className="dir-faq__q">{question}</summary>
        <div className="dir-faq__a">{children}</div>
      </details>
    </li>
  );
}
