/**
 * A release action's confirmation: the remote's name typed out, and a reason (it goes into the history and the
 * audit log). The button stays disabled until both are there; the server checks `confirm` again.
 */
import { useState, type ReactNode } from 'react';
import type { useFieldErrors } from '../fieldErrors';
import { Field } from './Field';

/** The refused fields' marks of the form around it (fieldErrors.ts useFieldErrors). */
export type ConfirmRefusals = Pick<ReturnType<typeof useFieldErrors>, 'formRef' | 'errors' | 'marks' | 'clear'>;

export function TypedConfirm({
  id,
  remote,
  action,
  children,
  refusals,
  onConfirm,
  onCancel,
}: {
  /** The controls' id prefix: `${id}-confirm`, `${id}-reason` (the refusals' marks name them so). */
  id: string;
  remote: string;
  /** The button's words, e.g. "Roll back blog". */
  action: string;
  /** The action's own fields, above the confirmation. */
  children?: ReactNode;
  /** Where the server refused a field, its reason beside it; focus moves to the first. */
  refusals: ConfirmRefusals;
  onConfirm(confirm: string, reason: string): void | Promise<void>;
  onCancel(): void;
}) {
  const { formRef, errors, marks, clear } = refusals;
  const [confirm, setConfirm] = useState('');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const ready = confirm === remote && reason.trim().length > 0 && !busy;
  return (
    <form
      ref={formRef}
      noValidate
      className="confirm"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!ready) return;
        setBusy(true);
        try {
          await onConfirm(confirm, reason.trim());
        } finally {
          setBusy(false);
        }
      }}
    >
      {children}
      <Field
        id={`${id}-confirm`}
        label={
          <>
            Type <strong translate="no">{remote}</strong> to confirm
          </>
        }
        error={errors.confirm}
      >
        <input
          id={`${id}-confirm`}
          value={confirm}
          onChange={(e) => {
            setConfirm(e.target.value);
            clear('confirm');
          }}
          autoComplete="off"
          spellCheck={false}
          autoFocus
          {...marks('confirm')}
        />
      </Field>
      <Field id={`${id}-reason`} label="Reason" error={errors.reason}>
        <textarea
          id={`${id}-reason`}
          value={reason}
          onChange={(e) => {
            setReason(e.target.value);
            clear('reason');
          }}
          rows={2}
          {...marks('reason')}
        />
      </Field>
      <button type="submit" className="btn btn--danger" disabled={!ready}>
        {action}
      </button>
      <button type="button" className="btn" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}
