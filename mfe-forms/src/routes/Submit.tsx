import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { MESSAGE_MAX_LENGTH, TOOL_TYPES, type FieldErrors } from '@aitools/api/contracts/forms';
import { usePageHead } from '../lib/pageHead';
import { EMPTY_SUBMISSION, sendSubmission, type SubmitValues } from '../lib/submitForm';
import '../styles.css';

type Phase = 'editing' | 'submitting' | 'submitted';
const FIELD_ORDER: (keyof SubmitValues)[] = ['name', 'email', 'website_url', 'tool_type', 'description', 'message'];

export default function Submit() {
  usePageHead('/submit', 'Submit Your Tool', 'Share your AI tool or MCP server with our community. Submit it for review and reach thousands of AI enthusiasts.');
  const [values, setValues] = useState<SubmitValues>(EMPTY_SUBMISSION);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>('editing');
  const formRef = useRef<HTMLFormElement>(null);
  const thanksRef = useRef<HTMLHeadingElement>(null);
  const focusAfterRender = useRef<keyof SubmitValues | null>(null);

  useEffect(() => {
    if (phase === 'submitted') thanksRef.current?.focus();
    // The fields are enabled again only after this render: now the first invalid one can take focus.
    if (phase === 'editing' && focusAfterRender.current) {
      formRef.current?.querySelector<HTMLElement>(`[name="${focusAfterRender.current}"]`)?.focus();
      focusAfterRender.current = null;
    }
  }, [phase, errors]);

  const onChange = (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const field = e.target.name as keyof SubmitValues;
    setValues((v) => ({ ...v, [field]: e.target.value }));
    // Editing a field clears that field's error only.
    setErrors((errs) => {
      if (!(field in errs)) return errs;
      const { [field]: _cleared, ...rest } = errs;
      return rest;
    });
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    setPhase('submitting');
    const outcome = await sendSubmission(values);
    if (outcome.ok) return setPhase('submitted');
    setErrors(outcome.fieldErrors);
    setFormError(outcome.error ?? null);
    focusAfterRender.current = FIELD_ORDER.find((f) => f in outcome.fieldErrors) ?? null;
    setPhase('editing');
  };

  if (phase === 'submitted') {
    return (
      <main className="forms-page forms-submit">
        <section className="forms-card forms-thanks">
          <h1 ref={thanksRef} tabIndex={-1}>
            Thank You
          </h1>
          <p>Your tool has been submitted for review. We reply to suggestions within 3-5 business days.</p>
          <Link to="/" className="btn btn--primary">
            Back to Directory
          </Link>
        </section>
      </main>
    );
  }

  const busy = phase === 'submitting';
  const describedBy = (field: keyof SubmitValues, extra?: string) => [errors[field] ? `submit-${field}-error` : '', extra ?? ''].filter(Boolean).join(' ') || undefined;
  const fieldError = (field: keyof SubmitValues) =>
    errors[field] ? (
      <p id={`submit-${field}-error`} className="forms-field__error">
        {errors[field]}
      </p>
    ) : null;
  const textField = (field: 'name' | 'email' | 'website_url', label: string, type: string, extra: { placeholder?: string; autoComplete?: string }) => (
    <div className="forms-field">
      <label htmlFor={`submit-${field}`}>
        {label} <span aria-hidden="true">*</span>
      </label>
      <input
        id={`submit-${field}`}
        name={field}
        type={type}
        value={values[field]}
        onChange={onChange}
        disabled={busy}
        aria-required="true"
        aria-invalid={errors[field] ? true : undefined}
        aria-describedby={describedBy(field)}
        {...extra}
      />
      {fieldError(field)}
    </div>
  );

  return (
    <main className="forms-page forms-submit">
      <Link to="/" className="forms-back">
        ← Back to Directory
      </Link>
      <header className="forms-header">
        <h1>Submit Your Tool</h1>
        <p>Share your AI tool or MCP server with our community</p>
      </header>
      {/* method=post: a submit before the code arrives must not put the visitor's details in the address. */}
      <form ref={formRef} className="forms-card forms-form" method="post" noValidate onSubmit={onSubmit}>
        {formError && (
          <p className="forms-banner forms-banner--error" role="alert">
            {formError}
          </p>
        )}
        {textField('name', 'Tool Name', 'text', { placeholder: 'e.g. My AI Assistant', autoComplete: 'off' })}
        {textField('email', 'Your Email', 'email', { placeholder: 'you@example.com', autoComplete: 'email' })}
        {textField('website_url', 'Website URL', 'url', { placeholder: 'https://example.com', autoComplete: 'url' })}

        <fieldset className="forms-field forms-choice" aria-describedby={describedBy('tool_type')}>
          <legend>
            Tool Type <span aria-hidden="true">*</span>
          </legend>
          <div className="forms-choice__options">
            {TOOL_TYPES.map((t) => (
              <label key={t.value} className="forms-choice__option">
                <input type="radio" name="tool_type" value={t.value} checked={values.tool_type === t.value} onChange={onChange} disabled={busy} />
                <span>
                  <span className="forms-choice__label">{t.label}</span>
                  <span className="forms-choice__hint">{t.description}</span>
                </span>
              </label>
            ))}
          </div>
          {fieldError('tool_type')}
        </fieldset>

        <div className="forms-field">
          <label htmlFor="submit-description">Description</label>
          <textarea id="submit-description" name="description" rows={4} value={values.description} onChange={onChange} disabled={busy} placeholder="What does your tool do?" aria-describedby={describedBy('description')} />
          {fieldError('description')}
        </div>

        <div className="forms-field">
          <label htmlFor="submit-message">Message to the reviewers</label>
          <textarea
            id="submit-message"
            name="message"
            rows={3}
            maxLength={MESSAGE_MAX_LENGTH}
            value={values.message}
            onChange={onChange}
            disabled={busy}
            placeholder="Anything else we should know? (optional)"
            aria-invalid={errors.message ? true : undefined}
            aria-describedby={describedBy('message', 'submit-message-count')}
          />
          <p id="submit-message-count" className="forms-field__counter">
            {values.message.length}/{MESSAGE_MAX_LENGTH}
          </p>
          {fieldError('message')}
        </div>

        <button type="submit" className="btn btn--primary forms-submit__button" disabled={busy}>
          {busy ? 'Submitting...' : 'Submit Tool'}
        </button>
      </form>
    </main>
  );
}
