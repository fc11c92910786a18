import { Form, useSearchParams } from 'react-router-dom';
import { contactEmail, defineRoute, SelectOptions, type RouteProps } from '@aitools/platform';
import { CONTACT_SUBJECTS, IDEMPOTENCY_KEY_FIELD } from '@aitools/contracts/formOptions';
import { pageHead } from '../shared/pageHead';
import { formPageLoader, type FormPageData } from '../shared/formRoute';
import {
  contactAction,
  contactForm,
  CONTACT_PATH,
  EMPTY_CONTACT,
  type ContactValues,
} from '../features/contact/contactForm';
import { useFormPost } from '../shared/useFormPost';
import { Field } from '../shared/Field';
import '../styles.css';

const FIELD_ORDER: (keyof ContactValues)[] = ['name', 'email', 'subject', 'message'];

const TOPICS = [
  { title: 'General Inquiries', text: 'Questions about the directory, our listings or anything else.' },
  { title: 'Tool Submissions', text: 'Suggest a tool or ask about one you already submitted.' },
  { title: 'Technical Support', text: 'Report a bug or a problem you met on the site.' },
  { title: 'Privacy & Legal', text: 'Questions about your data, our policies or legal matters.' },
];

function Contact({ data }: RouteProps<FormPageData>) {
  const email = contactEmail();
  const [search] = useSearchParams();
  const {
    actionData,
    errors,
    formError,
    tried,
    busy,
    onFieldChange,
    checkBeforeSending,
    formRef,
    failedRef,
    autoFocus,
  } = useFormPost(contactForm, CONTACT_PATH, FIELD_ORDER);
  const values = actionData?.values ?? EMPTY_CONTACT;
  const key = actionData?.idempotencyKey ?? data.idempotencyKey;
  // The redirect after a stored message; a newer attempt (its errors, its failure) replaces the banner.
  const sent = search.get('sent') === '1' && !actionData && !busy && !tried;
  const failed = !!formError && !busy;

  const common = (field: keyof ContactValues) => ({ name: field, defaultValue: values[field], disabled: busy });
  const field = (name: keyof ContactValues) => ({ error: errors[name], autoFocus: autoFocus(name) });

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
          {sent && (
            <div className="forms-banner forms-banner--success" role="status">
              <p className="forms-banner__title">Message Sent Successfully!</p>
              <p>Thank you for contacting us. We'll get back to you as soon as possible.</p>
            </div>
          )}
          {failed && (
            <div ref={failedRef} tabIndex={-1} className="forms-banner forms-banner--error" role="alert">
              <p className="forms-banner__title">Error Sending Message</p>
              {/* A post the server could not read as a form, or one over the budget, says so; any other failure is the
                  catalogue's text. */}
              <p>
                {formError === 'send'
                  ? `There was an error sending your message. Please try again or contact us directly at ${email}`
                  : formError}
              </p>
            </div>
          )}
          {/* Posts to this page, so it also works before and without the code; checked with the same schema in
              the browser and on the server (noValidate: the schema's messages on both paths). Keyed by the post's
              key: a stored message brings a new key with the redirect, which is what clears the form. */}
          <Form
            key={key}
            ref={formRef}
            className="forms-form"
            method="post"
            action={CONTACT_PATH}
            replace
            noValidate
            onSubmit={checkBeforeSending}
            onChange={onFieldChange}
          >
            <input type="hidden" name={IDEMPOTENCY_KEY_FIELD} value={key} />
            <Field id="contact-name" label="Name" required {...field('name')}>
              {(control) => <input {...control} {...common('name')} type="text" autoComplete="name" />}
            </Field>
            <Field id="contact-email" label="Email" required {...field('email')}>
              {(control) => <input {...control} {...common('email')} type="email" autoComplete="email" />}
            </Field>
            <Field id="contact-subject" label="Subject" required {...field('subject')}>
              {(control) => (
                <select {...control} {...common('subject')}>
                  <option value="">Select a subject</option>
                  <SelectOptions options={CONTACT_SUBJECTS} />
                </select>
              )}
            </Field>
            <Field id="contact-message" label="Message" required {...field('message')}>
              {(control) => <textarea {...control} {...common('message')} rows={5} />}
            </Field>
            <button type="submit" className="btn btn--primary" disabled={busy}>
              {busy ? 'Sending...' : 'Send Message'}
            </button>
          </Form>
        </section>
      </div>
    </main>
  );
}

export default defineRoute<FormPageData>({
  loader: formPageLoader,
  action: contactAction,
  head: pageHead(
    '/contact',
    'Contact Us',
    'Contact the AI Tools Directory team: general inquiries, tool submissions, technical support, privacy and legal questions.',
  ),
  Component: Contact,
});
