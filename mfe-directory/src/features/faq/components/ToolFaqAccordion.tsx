import { useState } from 'react';
import type { ToolFaq } from '@aitools/contracts/tools';
import { FaqItem } from './FaqItem';

/** One answer open at a time; clicking the open question closes it. */
export function ToolFaqAccordion({ faqs }: { faqs: ToolFaq[] }) {
  const [open, setOpen] = useState<number | null>(null);
  return (
    <section aria-labelledby="dir-tool-faq-title" className="dir-detail__section">
      <h2 id="dir-tool-faq-title">Frequently Asked Questions</h2>
      <ul className="dir-faq__list">
        {faqs.map((faq, i) => (
          <FaqItem
            key={i}
            id={`dir-tfaq-${i}`}
            question={faq.question}
            open={open === i}
            onToggle={() => setOpen(open === i ? null : i)}
          >
            <p>{faq.answer}</p>
          </FaqItem>
        ))}
      </ul>
    </section>
  );
}
