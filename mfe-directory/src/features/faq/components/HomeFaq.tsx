import { useRef, useState } from 'react';
import { contactEmail } from '@aitools/platform';
import { HOME_FAQ } from '../homeFaq';
import { FaqItem } from './FaqItem';
import { obfuscateEmail } from '../../../shared/email';

/** Shown as name[at]domain[dot]tld; the first click turns it into a real mail link. Before and without script it
 *  is a link to the contact page, which gives the address (docs/product.md, Home FAQ). */
function ObfuscatedEmail({ email }: { email: string }) {
  const [revealed, setRevealed] = useState(false);
  const link = useRef<HTMLAnchorElement>(null);
  if (revealed) {
    return (
      <a ref={link} href={`mailto:${email}`} className="dir-faq__email">
        {email}
      </a>
    );
  }
  return (
    <a
      href="/contact"
      className="dir-faq__email dir-faq__email--hidden"
      onClick={(event) => {
        event.preventDefault();
        setRevealed(true);
        requestAnimationFrame(() => link.current?.focus());
      }}
      aria-label={`Show email address ${obfuscateEmail(email)}`}
    >
      {obfuscateEmail(email)}
    </a>
  );
}

/** Home FAQ (#faq): entries open and close independently, as native disclosures (FaqItem), before and without
 *  script too. */
export function HomeFaq() {
  const email = contactEmail();
  return (
    <section id="faq" className="dir-faq" aria-labelledby="dir-faq-title">
      <h2 id="dir-faq-title">Frequently Asked Questions</h2>
      <ul className="dir-faq__list">
        {HOME_FAQ.map((entry) => (
          <FaqItem key={entry.question} question={entry.question}>
            <p>{entry.answer}</p>
            {entry.emailContact && (
              <p>
                Email: <ObfuscatedEmail email={email} />
              </p>
            )}
          </FaqItem>
        ))}
      </ul>
    </section>
  );
}
