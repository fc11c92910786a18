import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface ModalProps {
  labelledBy: string;
  describedBy?: string;
  onClose: () => void;
  /** Where focus goes on close when the element focused before opening is gone (e.g. it opened on page load). */
  returnFocusTo?: () => HTMLElement | null;
  /** The page without this dialog (e.g. `/advertise?waitlist=closed`): the "Close" control's address when the
   *  code has not arrived or is off, so that it closes the dialog without JavaScript too. */
  closedUrl: string;
  children: ReactNode;
}

/**
 * A modal dialog: focus moves in on open and is kept inside; Escape, the "Close" control and a click outside
 * close it; focus goes back on close.
 */
export function Modal({ labelledBy, describedBy, onClose, returnFocusTo, closedUrl, children }: ModalProps) {
  const dialogRef = useRef<HTMLDivElement>(null);
  const returnFocus = useRef(returnFocusTo);
  returnFocus.current = returnFocusTo;

  useEffect(() => {
    const previous =
      document.activeElement instanceof HTMLElement && document.activeElement !== document.body
        ? document.activeElement
        : null;
    const dialog = dialogRef.current;
    (dialog?.querySelector<HTMLElement>('[data-autofocus]') ?? dialog)?.focus();
    return () => {
      const target = previous?.isConnected ? previous : returnFocus.current?.();
      // After React has committed the close (the page behind is no longer inert).
      setTimeout(() => target?.focus(), 0);
    };
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      onClose();
      return;
    }
    if (e.key !== 'Tab' || !dialogRef.current) return;
    const items = Array.from(dialogRef.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    if (!items.length) return void e.preventDefault();
    const first = items[0];
    const last = items[items.length - 1];
    const active = document.activeElement;
    if (e.shiftKey && (active === first || active === dialogRef.current)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && active === last) {
      e.preventDefault();
      first.focus();
    }
  };

  const closed = new URL(closedUrl, 'http://page.invalid');
  return (
    <div className="forms-modal">
      {/* A pointer's way out; keyboards have Escape and the Close button. */}
      <div className="forms-modal__backdrop" aria-hidden="true" onClick={onClose} />
      <div
        ref={dialogRef}
        className="forms-modal__dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        {children}
        {/* Last in the tab order, first in sight (top right). Without the code it loads the page without the dialog. */}
        <form
          className="forms-modal__close"
          method="get"
          action={closed.pathname}
          onSubmit={(e) => {
            e.preventDefault();
            onClose();
          }}
        >
          {Array.from(closed.searchParams, ([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <button type="submit" className="btn btn--ghost">
            Close
          </button>
        </form>
      </div>
    </div>
  );
}
