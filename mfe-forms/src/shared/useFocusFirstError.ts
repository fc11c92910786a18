import { useEffect, useRef, type RefObject } from 'react';

/**
 * After a submit the page's checks refuse, focus moves to the first invalid field (in the form's order), so the
 * visitor, and a screen reader, land on the first thing to mend. Call the returned function from the form's
 * onSubmit; the move waits until the fields are enabled again. A page the server answered with errors (the form
 * sent before or without the code) does the same through `autoFocus` on that field (firstError).
 */
export function useFocusFirstError<Field extends string>(
  form: RefObject<HTMLFormElement | null>,
  order: readonly Field[],
  errors: Partial<Record<Field, string>>,
  busy: boolean,
): () => void {
  const pending = useRef(false);
  useEffect(() => {
    if (busy || !pending.current) return;
    pending.current = false;
    const first = firstError(order, errors);
    if (first) form.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  }, [errors, busy, form, order]);
  return () => {
    pending.current = true;
  };
}

/** The first field in `order` with an error. */
export function firstError<Field extends string>(
  order: readonly Field[],
  errors: Partial<Record<Field, string>>,
): Field | undefined {
  return order.find((f) => f in errors);
}
