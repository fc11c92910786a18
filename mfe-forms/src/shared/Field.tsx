import type { ReactNode } from 'react';

/** What the control of a field carries: its id and its accessible state (required, invalid, described by). */
export interface ControlProps {
  id: string;
  required?: true;
  autoFocus?: true;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

interface FieldProps {
  /** The control's id; its error's id is `<id>-error`. */
  id: string;
  label: ReactNode;
  required?: boolean;
  /** The field's message (the schema's, from the browser's check or the server's answer). */
  error?: string;
  /** The error is announced as it appears (role="alert"): for a dialog's one field. */
  announce?: boolean;
  /** The page loads with focus here: the first invalid field of a page the server answered with errors. */
  autoFocus?: boolean;
  /** Ids of other elements that describe the control (a counter), after the error. */
  describedBy?: string;
  /** After the control, before the error (a counter). */
  after?: ReactNode;
  children: (control: ControlProps) => ReactNode;
}

/**
 * One form field of the forms remote: the label, the control (rendered by the caller with the props given), and
 * the error, which the control names in aria-describedby. Every form is `noValidate` and checked with its schema in
 * the browser and on the server (the same messages on both paths), so `required` only tells what the field is.
 */
export function Field({ id, label, required, error, announce, autoFocus, describedBy, after, children }: FieldProps) {
  const errorId = `${id}-error`;
  const described = [error ? errorId : '', describedBy ?? ''].filter(Boolean).join(' ');
  return (
    <div className="forms-field">
      <label htmlFor={id}>
        {label}
        {required && (
          <>
            {' '}
            <span aria-hidden="true">*</span>
          </>
        )}
      </label>
      {children({
        id,
        ...(required ? { required: true } : {}),
        ...(autoFocus ? { autoFocus: true } : {}),
        ...(error ? { 'aria-invalid': true } : {}),
        ...(described ? { 'aria-describedby': described } : {}),
      })}
      {after}
      {error && (
        <p id={errorId} className="forms-field__error" role={announce ? 'alert' : undefined}>
          {error}
        </p>
      )}
    </div>
  );
}
