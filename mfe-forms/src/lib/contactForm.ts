import { postJson } from '@aitools/platform';
import { contactSchema, validateForm, type ContactInput, type FieldErrors } from '@aitools/api/contracts/forms';

export type ContactValues = { [K in keyof ContactInput]: string };
export const EMPTY_CONTACT: ContactValues = { name: '', email: '', subject: '', message: '' };

export type ContactOutcome = { ok: true } | { ok: false; fieldErrors: FieldErrors };

/** Validates with the shared schema, then sends; any non-OK answer or network failure is a failure. */
export async function sendContactMessage(values: ContactValues): Promise<ContactOutcome> {
  const checked = validateForm(contactSchema, values);
  if (!checked.success) return { ok: false, fieldErrors: checked.fieldErrors };
  try {
    const res = await postJson('/api/contact/submit', checked.data);
    return res.ok ? { ok: true } : { ok: false, fieldErrors: {} };
  } catch {
    return { ok: false, fieldErrors: {} };
  }
}
