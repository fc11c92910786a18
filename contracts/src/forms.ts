/**
 * The three public forms (docs/product.md, Submit form, Contact form, Advertise): one zod schema each, with their exact messages,
 * used by the browser before sending and by the server before storing. Pure TS + zod only.
 */
import { fieldErrorsOf, z } from './zod';
import { hasVisibleCharacter } from './text';
import { isWebUrl, textField as text, type TextRules } from './fields';

/**
 * Maximum lengths (UTF-16 code units, as the browser's maxLength counts) of every text field, for the inputs'
 * maxLength and for the schemas below.
 */
export const NAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;
export const URL_MAX_LENGTH = 2048;
export const DESCRIPTION_MAX_LENGTH = 2000;
export const MESSAGE_MAX_LENGTH = 500;
export const CONTACT_MESSAGE_MAX_LENGTH = 5000;

/**
 * Idempotency: a form post may carry a key (this header, or this hidden field for HTML form posts, which cannot
 * set headers). A retried post with the same key answers the first result and stores nothing twice.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_FIELD = 'idempotencyKey';
export const idempotencyKeySchema = z
  .string({ error: 'Invalid idempotency key' })
  .regex(/^[A-Za-z0-9._:-]{8,128}$/, 'Invalid idempotency key');

/** A fresh key for one form render (random, 122 bits). */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  // randomUUID exists only in secure contexts; getRandomValues everywhere.
  return Array.from(c.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** "A simple email pattern": something@something.tld, no spaces. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const TOOL_TYPES = [
  { value: 'ai-tool', label: 'AI Tool', description: 'General AI-powered tools and applications' },
  { value: 'mcp-server', label: 'MCP Server', description: 'Model Context Protocol servers and integrations' },
] as const;
export type ToolType = (typeof TOOL_TYPES)[number]['value'];

export const CONTACT_SUBJECTS = [
  { value: 'general', label: 'General Inquiry' },
  { value: 'tool-suggestion', label: 'Tool Suggestion' },
  { value: 'bug-report', label: 'Bug Report' },
  { value: 'partnership', label: 'Partnership' },
  { value: 'privacy', label: 'Privacy Question' },
  { value: 'other', label: 'Other' },
] as const;
export type ContactSubject = (typeof CONTACT_SUBJECTS)[number]['value'];

export const EARLY_ACCESS_TYPE = 'early_access_advertising';
export const EARLY_ACCESS_SOURCE = 'advertise_page_modal';

/** A required text field: one message for "missing", "not text", "blank" and "nothing visible" (zero-width only). */
function requiredText(message: string, rules: TextRules) {
  return text(rules, message).min(1, message).refine(hasVisibleCharacter, message);
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

/** The record kept for an early-access subscriber (locally in the browser and in the database). */
export interface EarlyAccessRecord {
  email: string;
  timestamp: string;
  type: typeof EARLY_ACCESS_TYPE;
  source: typeof EARLY_ACCESS_SOURCE;
}

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
