/** Reading a console request's JSON body: exactly the fields a call takes (an unknown one, e.g. a role, is a 400). */
import type { z } from 'zod';
import type { FormFields } from '@aitools/contracts/formFields';
import { notAccepted } from '../middleware/errors';

/** A refusal names each field once, by the label of the form that sends it (`fields`) when there is one. */
export function readBody<T extends z.ZodType>(schema: T, body: unknown, fields: FormFields = []): z.infer<T> {
  const r = schema.safeParse(body ?? {});
  if (r.success) return r.data;
  // Keyed by what was sent: a key named __proto__ or toString is a field like any other, not the object's own.
  const fieldErrors = new Map<string, string>();
  for (const issue of r.error.issues) {
    const field = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.join('.') || 'body';
    if (!fieldErrors.has(field))
      fieldErrors.set(field, issue.code === 'unrecognized_keys' ? 'not a field of this call' : issue.message);
  }
  throw notAccepted(fields, Object.fromEntries(fieldErrors));
}
