import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useActionData, useLocation, useNavigation } from 'react-router-dom';
import type { FieldErrors } from '@aitools/contracts/forms';
import { loadValidation, type FormActionData, type FormPost, type Validation } from './formRoute';

/** What shows a visitor is about to fill in a form. */
const ENGAGING_EVENTS = ['focusin', 'pointerdown', 'keydown'] as const;

const NO_FIELDS: readonly never[] = [];

/**
 * A form page's state in the browser: the field errors and the form-level message shown (the action's, or the
 * browser's own check of the same schema), whether its post is under way, and a submit handler that checks before
 * anything is sent.
 * The form's inputs are uncontrolled, so what a visitor typed (even before the code arrived) stays theirs.
 * The checks load when the visitor first touches a form (validation.ts); a submit before they arrive waits for them.
 *
 * With the form's fields in `order` (and `formRef` on the form): after a submit the checks refuse, focus moves to the
 * first invalid field once the fields are enabled again, and a page the server answered with errors (sent before or
 * without the code) loads with focus there (`autoFocus`), so the visitor, and a screen reader, land on the first
 * thing to mend. After a send that failed, focus moves to the failure message (`failedRef`), so it stays in the form.
 */
export function useFormPost<V extends Record<string, string>>(
  form: FormPost<V>,
  pagePath: string,
  order: readonly (keyof V & string)[] = NO_FIELDS,
) {
  const checks = useRef<Validation | null>(null);
  useEffect(() => {
    // Evaluating the checks (zod) is a long task on a slow phone: it waits for the visitor's first touch of a form
    // (a focus, press or key), seconds before any submit, never for a visit that only reads the page.
    const engage = (target: EventTarget | null) => {
      if (!(target instanceof Element) || !target.closest('form')) return;
      stop();
      // A failed load (offline) is tried again by the submit.
      loadValidation().then(
        (v) => (checks.current = v),
        () => {},
      );
    };
    const onEvent = (e: Event) => engage(e.target);
    const stop = () => ENGAGING_EVENTS.forEach((type) => document.removeEventListener(type, onEvent, true));
    ENGAGING_EVENTS.forEach((type) => document.addEventListener(type, onEvent, true));
    // A field the visitor focused before the code ran counts too.
    engage(document.activeElement);
    return stop;
  }, []);
  const actionData = useActionData() as FormActionData<V> | undefined;
  const navigation = useNavigation();
  const [errors, setErrors] = useState<FieldErrors>(actionData?.fieldErrors ?? {});
  const [formError, setFormError] = useState(actionData?.formError);
  // Each answer of the action replaces the errors shown (derived during render, no effect needed).
  const [answered, setAnswered] = useState(actionData);
  if (answered !== actionData) {
    setAnswered(actionData);
    setErrors(actionData?.fieldErrors ?? {});
    setFormError(actionData?.formError);
  }
  // Whether the visitor submitted on this page (a redirect after a post is another page): a newer attempt replaces
  // what the page said of an earlier one.
  const location = useLocation();
  const [triedAt, setTriedAt] = useState<string>();
  const tried = triedAt === location.key;

  /** From the click to the page after the redirect: the post of this page is under way. */
  const busy = navigation.formMethod?.toUpperCase() === 'POST' && navigation.formAction?.split('?')[0] === pagePath;

  const formRef = useRef<HTMLFormElement>(null);
  const failed = useRef<HTMLElement | null>(null);
  /** The element that takes focus after a failed send (its message, with tabIndex -1). */
  const failedRef = useCallback((el: HTMLElement | null) => void (failed.current = el), []);
  // Set by a submit: once its outcome shows (the fields enabled again), the first invalid field takes focus, or
  // the failure message (the disabled button had it, and focus would drop to the page).
  const focusOutcome = useRef(false);
  useEffect(() => {
    if (busy || !focusOutcome.current) return;
    const first = order.find((f) => f in errors);
    const target = first
      ? formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)
      : formError && failed.current;
    if (!target) return;
    focusOutcome.current = false;
    target.focus();
  }, [errors, formError, busy, order]);
  const serverFirst = order.find((f) => f in (actionData?.fieldErrors ?? {}));
  /** Whether the page loads with focus on `field`. */
  const autoFocus = (field: keyof V & string) => field === serverFirst;

  /** Editing a field clears that field's error only. */
  const clearError = (field: string) =>
    setErrors((errs) => {
      if (!(field in errs)) return errs;
      const { [field]: _cleared, ...rest } = errs;
      return rest;
    });

  /** The form's change handler: the changed field's error goes. */
  const onFieldChange = (e: FormEvent<HTMLFormElement>) => {
    const { name } = e.target as Partial<HTMLInputElement>;
    if (name) clearError(name);
  };

  /**
   * Runs the schema on the form's values; on errors, nothing is sent. Returns the errors (empty when valid), or null
   * when the checks had not loaded yet: then nothing is sent now, and once they are, a valid form is submitted again
   * by the same button (this handler runs again and answers at once).
   */
  const checkBeforeSending = (e: FormEvent<HTMLFormElement>): FieldErrors | null => {
    focusOutcome.current = true;
    setTriedAt(location.key);
    setFormError(undefined);
    const element = e.currentTarget;
    const check = (v: Validation) => {
      const values = Object.fromEntries(Array.from(new FormData(element), ([k, val]) => [k, String(val)]));
      const checked = v.validateForm(form.schema(v), values);
      return checked.success ? {} : checked.fieldErrors;
    };
    if (checks.current) {
      const found = check(checks.current);
      setErrors(found);
      if (Object.keys(found).length) e.preventDefault();
      return found;
    }
    e.preventDefault();
    const submitter = (e.nativeEvent as SubmitEvent).submitter;
    loadValidation().then(
      (v) => {
        checks.current = v;
        const found = check(v);
        if (Object.keys(found).length) setErrors(found);
        else element.requestSubmit(submitter);
      },
      // The checks could not be fetched (offline): the form's text for a send that reached no server; the next
      // submit loads them again.
      () => setFormError(form.failure('unreachable').formError),
    );
    return null;
  };

  return {
    actionData,
    errors,
    formError,
    tried,
    busy,
    clearError,
    onFieldChange,
    checkBeforeSending,
    formRef,
    failedRef,
    autoFocus,
  };
}
