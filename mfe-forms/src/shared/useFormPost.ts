import { useState, type FormEvent } from 'react';
import { useActionData, useNavigation } from 'react-router-dom';
import type { z } from 'zod';
import { validateForm, type FieldErrors } from '@aitools/contracts/forms';
import type { FormActionData } from './formRoute';

/**
 * A form page's state in the browser: the field errors shown (the action's, or the browser's own check of the
 * same schema), whether its post is under way, and a submit handler that checks before anything is sent.
 * The form's inputs are uncontrolled, so what a visitor typed (even before the code arrived) stays theirs.
 */
export function useFormPost<V extends Record<string, string>>(schema: z.ZodType, pagePath: string) {
  const actionData = useActionData() as FormActionData<V> | undefined;
  const navigation = useNavigation();
  const [errors, setErrors] = useState<FieldErrors>(actionData?.fieldErrors ?? {});
  // Each answer of the action replaces the errors shown (derived during render, no effect needed).
  const [answered, setAnswered] = useState(actionData);
  if (answered !== actionData) {
    setAnswered(actionData);
    setErrors(actionData?.fieldErrors ?? {});
  }

  /** From the click to the page after the redirect: the post of this page is under way. */
  const busy = navigation.formMethod?.toUpperCase() === 'POST' && navigation.formAction?.split('?')[0] === pagePath;

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

  /** Runs the schema on the form's values; on errors, nothing is sent. Returns the errors (empty when valid). */
  const checkBeforeSending = (e: FormEvent<HTMLFormElement>): FieldErrors => {
    const values = Object.fromEntries(Array.from(new FormData(e.currentTarget), ([k, v]) => [k, String(v)]));
    const checked = validateForm(schema, values);
    if (checked.success) return {};
    e.preventDefault();
    setErrors(checked.fieldErrors);
    return checked.fieldErrors;
  };

  return { actionData, errors, busy, clearError, onFieldChange, checkBeforeSending };
}
