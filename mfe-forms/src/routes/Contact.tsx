import { useState, type ChangeEvent, type FormEvent } from 'react';
import { contactEmail } from '@aitools/platform';
import { CONTACT_SUBJECTS, type FieldErrors } from '@aitools/api/contracts/forms';
import { usePageHead } from '../lib/pageHead';
import { EMPTY_CONTACT, sendContactMessage, type ContactValues } from '../lib/contactForm';
import '../styles.css';

type Status = 'idle' | 'submitting' | 'success' | 'error';

const TOPICS = [
  { title: 'General Inquiries', text: 'Questions about the directory, our listings or anything else.' },
  { title: 'Tool Submissions', text: 'Suggest a tool or ask about one you already submitted.' },
  { title: 'Technical Support', text: 'Report a bug or a problem you met on the site.' },
  { title: 'Privacy & Legal', text: 'Questions about your data, our policies or legal matters.' },
];

export default function Contact() {
  usePageHead('/contact', 'Contact Us', 'Contact the AI Tools Directory team: general inquiries, tool submissions, technical support, privacy and legal questions.');
  const email = contactEmail();
  const [values, setValues] = useState<ContactValues>(EMPTY_CONTACT);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [status, setStatus] = useState<Status>('idle');
  const busy = status === 'submitting';

  const onChange = (e: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => {
    const field = e.target.name as keyof ContactValues;
    setValues((v) => ({ ...v, [field]: e.target.value }));
    setErrors(({ [field]: _cleared, ...rest }) => rest);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setStatus('submitting');
    const outcome = await sendContactMessage(values);
    if (outcome.ok) {
      setValues(EMPTY_CONTACT);
      setErrors({});
      return setStatus('success');
    }
    setErrors(outcome.fieldErrors);
    // A form the schema refused is still being edited; a refused or failed request is the error banner.
    setStatus(Object.keys(outcome.fieldErrors).length ? 'idle' : 'error');
  };

  const errorOf = (field: keyof ContactValues) =>
    errors[field] ? (
      <p id={`contact-${field}-error`} className="forms-field__error">
        {errors[field]}
      </p>
    ) : null;
  const control = (field: keyof ContactValues) => ({
    id: `contact-${field}`,
    name: field,
    value: values[field],
    onChange,
    disabled: busy,
    required: true,
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `contact-${field}-error` : undefined,
  });

  return (
    <main className="forms-page forms-contact">
      <header className="forms-header">
        <h1>Contact Us</h1>
        <p>Have a question, a suggestion or a partnership idea? We'd love to hear from you.</p>
      </header>
      <div className="forms-contact__grid">
        <section className="forms-contact__topics" aria-labelledby="contact-topics-title">
          <h2 id="contact-topics-title">How can we help?</h2>
          <ul>
            {TOPICS.map((t) => (
              <li key={t.title} className="forms-card forms-topic">
                <h3>{t.title}</h3>
                <p>{t.text}</p>
                <a href={`mailto:${email}`}>{email}</a>
              </li>
            ))}
          </ul>
        </section>

        <section className="forms-card" aria-labelledby="contact-form-title">
          <h2 id="contact-form-title">Send us a message</h2>
          {status === 'success' && (
            <div className="forms-banner forms-banner--success" role="status">
              <p className="forms-banner__title">Message Sent Successfully!</p>
              <p>Thank you for contacting us. We'll get back to you as soon as possible.</p>
            </div>
          )}
          {status === 'error' && (
            <div className="forms-banner forms-banner--error" role="alert">
              <p className="forms-banner__title">Error Sending Message</p>
              <p>There was an error sending your message. Please try again or contact us directly at {email}</p>
            </div>
          )}
          <form className="forms-form" method="post" onSubmit={onSubmit}>
            <div className="forms-field">
              <label htmlFor="contact-name">
                Name <span aria-hidden="true">*</span>
              </label>
              <input type="text" autoComplete="name" {...control('name')} />
              {errorOf('name')}
            </div>
            <div className="forms-field">
              <label htmlFor="contact-email">
                Email <span aria-hidden="true">*</span>
              </label>
              <input type="email" autoComplete="email" {...control('email')} />
              {errorOf('email')}
            </div>
            <div className="forms-field">
              <label htmlFor="contact-subject">
                Subject <span aria-hidden="true">*</span>
              </label>
              <select {...control('subject')}>
                <option value="">Select a subject</option>
                {CONTACT_SUBJECTS.map((s) => (
                  <option key={s.value} value={s.value}>
                    {s.label}
                  </option>
                ))}
              </select>
              {errorOf('subject')}
            </div>
            <div className="forms-field">
              <label htmlFor="contact-message">
                Message <span aria-hidden="true">*</span>
              </label>
              <textarea rows={5} {...control('message')} />
              {errorOf('message')}
            </div>
            <button type="submit" className="btn btn--primary" disabled={busy}>
              {busy ? 'Sending...' : 'Send Message'}
            </button>
          </form>
        </section>
      </div>
    </main>
  );
}
