import { useEffect, useRef, useState } from 'react';
import { Form, Link, useSearchParams } from 'react-router-dom';
import { defineRoute, type RouteProps } from '@aitools/platform';
import { MESSAGE_MAX_LENGTH, TOOL_TYPES, IDEMPOTENCY_KEY_FIELD } from '@aitools/contracts/formOptions';
import { pageHead } from '../shared/pageHead';
import { formPageLoader, type FormPageData } from '../shared/formRoute';
import {
  EMPTY_SUBMISSION,
  submitAction,
  submitForm,
  SUBMIT_PATH,
  type SubmitValues,
} from '../features/submit/submitForm';
import { useFormPost } from '../shared/useFormPost';
import { Field } from '../shared/Field';
import '../styles.css';

const FIELD_ORDER: (keyof SubmitValues)[] = ['name', 'email', 'website_url', 'tool_type', 'description', 'message'];

function Submit({ data }: RouteProps<FormPageData>) {
  const [search] = useSearchParams();
  const { actionData, errors, formError, busy, onFieldChange, checkBeforeSending, formRef, failedRef, autoFocus } =
    useFormPost(submitForm, SUBMIT_PATH, FIELD_ORDER);
  const posted = useRef(false);
  if (busy) posted.current = true;

  if (search.get('submitted') === '1' && !actionData && !busy) return <Thanks focus={posted.current} />;

  const values = actionData?.values ?? EMPTY_SUBMISSION;
  const key = actionData?.idempotencyKey ?? data.idempotencyKey;
  const textField = (
    field: 'name' | 'email' | 'website_url',
    label: string,
    type: string,
    extra: { placeholder?: string; autoComplete?: string },
  ) => (
    <Field id={`submit-${field}`} label={label} required error={errors[field]} autoFocus={autoFocus(field)}>
      {(control) => (
        <input {...control} name={field} type={type} defaultValue={values[field]} disabled={busy} {...extra} />
      )}
    </Field>
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
      {/* Posts to this page, so it also works before and without the code; the server checks with the same
          schema. noValidate: the schema's messages, not the browser's, on both paths. */}
      <Form
        key={key}
        ref={formRef}
        className="forms-card forms-form"
        method="post"
        action={SUBMIT_PATH}
        replace
        noValidate
        onSubmit={checkBeforeSending}
        onChange={onFieldChange}
      >
        {formError && !busy && (
          <p ref={failedRef} tabIndex={-1} className="forms-banner forms-banner--error" role="alert">
            {formError}
          </p>
        )}
        <input type="hidden" name={IDEMPOTENCY_KEY_FIELD} value={key} />
        {textField('name', 'Tool Name', 'text', { placeholder: 'e.g. My AI Assistant', autoComplete: 'off' })}
        {textField('email', 'Your Email', 'email', { placeholder: 'you@example.com', autoComplete: 'email' })}
        {textField('website_url', 'Website URL', 'url', { placeholder: 'https://example.com', autoComplete: 'url' })}

        {/* A choice of radios: a fieldset with its legend, the error described the same way as a Field's. */}
        <fieldset
          className="forms-field forms-choice"
          aria-describedby={errors.tool_type ? 'submit-tool_type-error' : undefined}
        >
          <legend>
            Tool Type <span aria-hidden="true">*</span>
          </legend>
          <div className="forms-choice__options tiles">
            {TOOL_TYPES.map((t, i) => (
              <label key={t.value} className="forms-choice__option tile">
                <input
                  type="radio"
                  name="tool_type"
                  value={t.value}
                  defaultChecked={values.tool_type === t.value}
                  disabled={busy}
                  autoFocus={autoFocus('tool_type') && i === 0}
                />
                <span>
                  <span className="forms-choice__label">{t.label}</span>
                  <span className="forms-choice__hint">{t.description}</span>
                </span>
              </label>
            ))}
          </div>
          {errors.tool_type && (
            <p id="submit-tool_type-error" className="forms-field__error">
              {errors.tool_type}
            </p>
          )}
        </fieldset>

        <Field
          id="submit-description"
          label="Description"
          error={errors.description}
          autoFocus={autoFocus('description')}
        >
          {(control) => (
            <textarea
              {...control}
              name="description"
              rows={4}
              defaultValue={values.description}
              disabled={busy}
              placeholder="What does your tool do?"
            />
          )}
        </Field>

        <MessageField initial={values.message} busy={busy} error={errors.message} autoFocus={autoFocus('message')} />

        <button type="submit" className="btn btn--primary forms-submit__button" disabled={busy}>
          {busy ? 'Submitting...' : 'Submit Tool'}
        </button>
      </Form>
    </main>
  );
}

/** The optional message with its N/500 counter; the counter starts from the field's DOM value, so text typed
 *  before the code arrived counts. */
function MessageField({
  initial,
  busy,
  error,
  autoFocus,
}: {
  initial: string;
  busy: boolean;
  error?: string;
  autoFocus: boolean;
}) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const [length, setLength] = useState(initial.length);
  useEffect(() => setLength(ref.current?.value.length ?? 0), []);
  const counter = (
    <p id="submit-message-count" className="forms-field__counter">
      {length}/{MESSAGE_MAX_LENGTH}
    </p>
  );
  return (
    <Field
      id="submit-message"
      label="Message to the reviewers"
      error={error}
      describedBy="submit-message-count"
      after={counter}
      autoFocus={autoFocus}
    >
      {(control) => (
        <textarea
          {...control}
          ref={ref}
          name="message"
          rows={3}
          maxLength={MESSAGE_MAX_LENGTH}
          defaultValue={initial}
          onChange={(e) => setLength(e.target.value.length)}
          disabled={busy}
          placeholder="Anything else we should know? (optional)"
        />
      )}
    </Field>
  );
}

/** After a stored submission (the page the post redirected to). */
function Thanks({ focus }: { focus: boolean }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus]);
  return (
    <main className="forms-page forms-submit">
      <section className="forms-card forms-thanks">
        <h1 ref={ref} tabIndex={-1}>
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

export default defineRoute<FormPageData>({
  loader: formPageLoader,
  action: submitAction,
  head: pageHead(
    '/submit',
    'Submit Your Tool',
    'Share your AI tool or MCP server with our community. Submit it for review and reach thousands of AI enthusiasts.',
  ),
  Component: Submit,
});
