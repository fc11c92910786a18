import type { ReactNode } from 'react';

/** One question of an accordion: a button that says whether its answer is shown, and the answer as a region. */
export function FaqItem({
  id,
  question,
  open,
  onToggle,
  children,
}: {
  id: string;
  question: string;
  open: boolean;
  onToggle: () => void;
  children: ReactNode;
}) {
  return (
    <li className="dir-faq__item">
      <h3 className="dir-faq__q">
        <button type="button" id={`${id}-q`} aria-expanded={open} aria-controls={`${id}-a`} onClick={onToggle}>
          <span>{question}</span>
          <span aria-hidden="true">{open ? '−' : '+'}</span>
        </button>
      </h3>
      <div id={`${id}-a`} role="region" aria-labelledby={`${id}-q`} className="dir-faq__a" hidden={!open}>
        {children}
      </div>
    </li>
  );
}
