import type { ToolFaq } from '@aitools/contracts/tools';
import { FaqItem } from './FaqItem';

/** One answer open at a time (one disclosure group); clicking the open question closes it. */
export function ToolFaqAccordion({ faqs }: { faqs: ToolFaq[] }) {
  return (
    <section aria-labelledby="dir-tool-faq-title" className="dir-detail__section">
      <h2 id="dir-tool-faq-title">Frequently Asked Questions</h2>
      <ul className="dir-faq__list">
        {faqs.map((faq, i) => (
          <FaqItem key={i} question={faq.question} group="dir-tool-faq">
            <p>{faq.answer}</p>
          </FaqItem>
        ))}
      </ul>
    </section>
  );
}
