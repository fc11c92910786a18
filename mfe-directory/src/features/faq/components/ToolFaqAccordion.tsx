import { useState } from 'react';
import type { ToolFaq } from '@aitools/api/contracts/tools';

/** One answer open at a time; clicking the open question closes it. */
export function ToolFaqAccordion({ faqs }: { faqs: ToolFaq[] }) {
  const [open, setOpen] = useState<number | null>(null);
  return (
    <section aria-labelledby="dir-tool-faq-title" className="dir-detail__section">
      <h2 id="dir-tool-faq-title">Frequently Asked Questions</h2>
      <ul className="dir-faq__list">
        {faqs.map((faq, i) => {
          const isOpen = open === i;
          return (
            <li key={i} className="dir-faq__item">
              <h3 className="dir-faq__q">
                <button type="button" id={`dir-tfaq-q-${i}`} aria-expanded={isOpen} aria-controls={`dir-tfaq-a-${i}`} onClick={() => setOpen(isOpen ? null : i)}>
                  <span>{faq.question}</span>
                  <span aria-hidden="true">{isOpen ? '−' : '+'}</span>
                </button>
              </h3>
              <div id={`dir-tfaq-a-${i}`} role="region" aria-labelledby={`dir-tfaq-q-${i}`} className="dir-faq__a" hidden={!isOpen}>
                <p>{faq.answer}</p>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
