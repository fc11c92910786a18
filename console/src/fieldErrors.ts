/**
 * A console form's refused fields, as the site's form pages handle theirs (mfe-forms useFormPost): each reason
 * beside its control (Field), the control marked aria-invalid; after a refusal, focus moves to the first refused
 * control in the order shown; changing a field clears that field's reason only. The server's paths are read through
 * the form's fields (contracts/formFields.ts), so `fields.excerpt` and `excerpt` mark the same control.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { FieldErrors } from '@aitools/contracts/answers';
import { FORM_KEY, formErrorsOf, refusedFields, type FormFields } from '@aitools/contracts/formFields';
import { ApiError } from './api';

/** The fieldErrors of a refused call, if it named any. */
export function fieldErrorsOf(err: unknown): FieldErrors | null {
  const body = err instanceof ApiError && err.status === 400 ? (err.body as { fieldErrors?: FieldErrors }) : null;
  return body?.fieldErrors && Object.keys(body.fieldErrors).length ? body.fieldErrors : null;
}

/** A field's label (the one place: contracts/formFields.ts). */
export function labelOf(fields: FormFields, name: string): string {
  const found = fields.find((f) => f.name === name);
  if (!found) throw new Error(`No field ${name} in this form`);
  return found.label;
}

/** "Not published: check Excerpt and Tags." — the refused fields by label, the reasons being beside them. */
export function refusalText(verb: string, fields: FormFields, errors: FieldErrors): string | null {
  const labels = refusedFields(fields, errors).map((f) => f.label);
  if (!labels.length) return null;
  const list = labels.length === 1 ? labels[0] : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
  return `${verb}: check ${list}.`;
}

export function useFieldErrors(fields: FormFields, idPrefix: string) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const formRef = useRef<HTMLFormElement>(null);
  // Bumped by each refusal: once its reasons are drawn, the first refused control takes focus.
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (refusals) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);

  /** Shows reasons keyed by the server's paths (or the form's names) and moves focus to the first (unless not `focus`). */
  const refuse = useCallback(
    (fieldErrors: FieldErrors, focus = true) => {
      setErrors(formErrorsOf(fields, fieldErrors));
      if (focus) setRefusals((n) => n + 1);
    },
    [fields],
  );

  /**
   * A failed call's reasons shown beside their fields; true when it named fields of this form (the caller then
   * need not show its message), false for any other failure.
   */
  const refuseFailure = useCallback(
    (err: unknown, focus = true): boolean => {
      const found = fieldErrorsOf(err);
      if (!found) return false;
      const mine = formErrorsOf(fields, found);
      if (Object.keys(mine).every((k) => k === FORM_KEY)) return false;
      refuse(found, focus);
      return true;
    },
    [fields, refuse],
  );

  /** Editing a field clears its reason only (with its entries' and parts', `faqs.2.answer` under `faqs`). */
  const clear = useCallback(
    (name: string) =>
      setErrors((errs) => {
        const kept = Object.entries(errs).filter(([key]) => key !== name && !key.startsWith(`${name}.`));
        return kept.length === Object.keys(errs).length ? errs : Object.fromEntries(kept);
      }),
    [],
  );

  /** A control's marks: aria-invalid and its reason (with its hint, if any) in aria-describedby. */
  const marks = (name: string, hintId?: string) => {
    const ids = [errors[name] ? `${idPrefix}-${name}-error` : '', hintId ?? ''].filter(Boolean).join(' ');
    return { 'aria-invalid': errors[name] ? true : undefined, 'aria-describedby': ids || undefined };
  };

  return {
    fields,
    idPrefix,
    errors,
    formRef,
    refuse,
    refuseFailure,
    clear,
    marks,
    reset: useCallback(() => setErrors({}), []),
  };
}

/** A form's field errors, as its controls (FormInput) read them. */
export type FormErrors = ReturnType<typeof useFieldErrors>;
