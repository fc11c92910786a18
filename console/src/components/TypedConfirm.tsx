/**
 * A release action's confirmation: the remote's name typed out, and a reason (it goes into the history and the
 * audit log). The button stays disabled until both are there; the server checks `confirm` again.
 */
import { useId, useState, type ReactNode } from 'react';

export function TypedConfirm({
  remote,
  action,
  children,
  onConfirm,
  onCancel,
}: {
  remote: string;
  /** The button's words, e.g. "Roll back blog". */
  action: string;
  /** The action's own fields, above the confirmation. */
  children?: ReactNode;
  onConfirm(confirm: string, reason: string): void | Promise<void>;
  onCancel(): void;
}) {
  const id = useId();
  const [confirm, setConfirm] = useState('');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const ready = confirm === remote && reason.trim().length > 0 && !busy;
  return (
    <form
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
      <div className="field">
        <label htmlFor={`${id}-confirm`}>
          Type <strong translate="no">{remote}</strong> to confirm
        </label>
        <input
          id={`${id}-confirm`}
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          autoComplete="off"
          spellCheck={false}
          autoFocus
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-reason`}>Reason</label>
        <textarea id={`${id}-reason`} value={reason} onChange={(e) => setReason(e.target.value)} rows={2} />
      </div>
      <button type="submit" className="btn btn--danger" disabled={!ready}>
        {action}
      </button>
      <button type="button" className="btn" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}
