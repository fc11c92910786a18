/**
 * The question before an action that changes what visitors see (approve or reject submissions, hide a tool): the
 * question, the action's own button and Cancel. It takes focus when it opens, so a keyboard or screen-reader user
 * is at the question; nothing happens until the action's button is pressed.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';

export function Confirm({
  question,
  action,
  danger = false,
  onConfirm,
  onCancel,
}: {
  question: ReactNode;
  /** The button's words, e.g. "Hide Cursor". */
  action: string;
  danger?: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  const id = useId();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div className="confirm" role="group" aria-labelledby={id} tabIndex={-1} ref={ref}>
      <p id={id}>{question}</p>
      <button type="button" className={danger ? 'btn btn--danger' : 'btn btn--primary'} onClick={onConfirm}>
        {action}
      </button>
      <button type="button" className="btn" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
