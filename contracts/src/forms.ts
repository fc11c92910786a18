/**
 * The three public forms (docs/product.md, Submit form, Contact form, Advertise): one zod schema each, with their exact messages,
 * used by the browser before sending and by the server before storing. Pure TS + zod only.
 */
import { fieldErrorsOf, z } from './zod';
import { isWebUrl, requireVisible, textField as text, type TextRules } from './fields';
import {
  CONTACT_SUBJECTS,
  CONTACT_MESSAGE_MAX_LENGTH,
  DESCRIPTION_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  MESSAGE_MAX_LENGTH,
  NAME_MAX_LENGTH,
  URL_MAX_LENGTH,
  type ContactSubject,
} from './formOptions';

export * from './formOptions';

export const idempotencyKeySchema = z
  .string({ error: 'Invalid idempotency key' })
  .regex(/^[A-Za-z0-9._:-]{8,128}$/, 'Invalid idempotency key');

/** "A simple email pattern": something@something.tld, no spaces. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A required text field: one message for "missing", "not text", "blank" and "nothing visible" (zero-width only). */
function requiredText(message: string, rules: TextRules) {
  return requireVisible(text(rules, message), message);
}

function email() {
  return requiredText('Email is required', { label: 'Email', max: EMAIL_MAX_LENGTH }).regex(
    EMAIL_PATTERN,
    'Please enter a valid email address',
  );
}

/** Optional free text: blank or absent becomes null (stored as NULL). */
function optionalText(rules: TextRules) {
  return text(rules, 'Must be text')
    .nullish()
    .transform((v) => (v == null || v === '' ? null : v));
}

export const submissionSchema = z.object({
  name: requiredText('Name is required', { label: 'Name', max: NAME_MAX_LENGTH }),
  email: email(),
  website_url: requiredText('Website URL is required', { label: 'Website URL', max: URL_MAX_LENGTH }).refine(
    isWebUrl,
    'Please enter a valid URL (starting with http:// or https://)',
  ),
  tool_type: z.enum(['ai-tool', 'mcp-server'], { error: 'Please choose a tool type' }).default('ai-tool'),
  description: optionalText({ label: 'Description', max: DESCRIPTION_MAX_LENGTH, multiline: true }),
  message: optionalText({ label: 'Message', max: MESSAGE_MAX_LENGTH, multiline: true }),
});
export type SubmissionInput = z.input<typeof submissionSchema>;
/** What a submission publishes (moderation approval checks it again): the fields a listing shows. */
export const listingSchema = submissionSchema.pick({ name: true, website_url: true, description: true });
export type Submission = z.output<typeof submissionSchema>;

export const contactSchema = z.object({
  name: requiredText('Name is required', { label: 'Name', max: NAME_MAX_LENGTH }),
  email: email(),
  subject: z.enum(CONTACT_SUBJECTS.map((s) => s.value) as [ContactSubject, ...ContactSubject[]], {
    error: 'Please choose a subject',
  }),
  message: requiredText('Message is required', { label: 'Message', max: CONTACT_MESSAGE_MAX_LENGTH, multiline: true }),
});
export type ContactInput = z.input<typeof contactSchema>;
export type ContactMessage = z.output<typeof contactSchema>;

export const earlyAccessSchema = z.object({ email: email() });
export type EarlyAccessInput = z.input<typeof earlyAccessSchema>;

import type { FieldErrors, Failure, Success } from './answers';

export type { FieldErrors };

export type FormResult<T> = { success: true; data: T } | { success: false; fieldErrors: FieldErrors };

/** Validates a form: the data with unknown fields dropped, or the first message per field. */
export function validateForm<S extends z.ZodType>(schema: S, input: unknown): FormResult<z.output<S>> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return { success: true, data: result.data };
  return { success: false, fieldErrors: fieldErrorsOf(result.error, 'form') };
}

/** Answers of the form endpoints (contracts/answers.ts): a created submission gives its id. */
export type FormSuccess = Success<{ id?: number }>;
export type FormFailure = Failure;
