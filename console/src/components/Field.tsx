import type { ReactNode } from 'react';

/**
 * A labelled control with its reason beside it (fieldErrors.ts): the control names `${id}-error` (and `${id}-hint`,
 * when there is a hint) in aria-describedby.
 */
export function Field({
  id,
  label,
  error,
  hint,
  wide = false,
  children,
}: {
  id: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={wide ? 'field field--wide' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children}
      {error && (
        <span id={`${id}-error`} className="field__error">
          {error}
        </span>
      )}
      {hint && (
        <span id={`${id}-hint`} className="muted">
          {hint}
        </span>
      )}
    </div>
  );
}
