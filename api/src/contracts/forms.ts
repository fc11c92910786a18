/**
 * The three public forms (SPEC sections 3, 5 and 8): one zod schema each, with the spec's exact messages,
 * used by the browser before sending and by the server before storing. Pure TS + zod only.
 */
import { z } from 'zod';

// zod 4 probes `new Function` on first use, which the site's CSP (no 'unsafe-eval') reports as a violation in the
// browser; without the JIT the schemas behave the same.
z.config({ jitless: true });

export const MESSAGE_MAX_LENGTH = 500;

/** "A simple email pattern": something@something.tld, no spaces. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const URL_PATTERN = /^https?:\/\/\S+$/i;

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

/** A required text field: trimmed, with one message for "missing", "not text" and "blank". */
function requiredText(message: string) {
  return z.string({ error: message }).trim().min(1, message);
}

function email() {
  return requiredText('Email is required').regex(EMAIL_PATTERN, 'Please enter a valid email address');
}

/** Optional free text: trimmed; blank or absent becomes null (stored as NULL). */
function optionalText() {
  return z
    .string({ error: 'Must be text' })
    .nullish()
    .transform((v) => (v == null || v.trim() === '' ? null : v.trim()));
}

export const submissionSchema = z.object({
  name: requiredText('Name is required'),
  email: email(),
  website_url: requiredText('Website URL is required').regex(URL_PATTERN, 'Please enter a valid URL (starting with http:// or https://)'),
  tool_type: z.enum(['ai-tool', 'mcp-server'], { error: 'Please choose a tool type' }).default('ai-tool'),
  description: optionalText(),
  message: z
    .string({ error: 'Must be text' })
    .max(MESSAGE_MAX_LENGTH, `Message must be ${MESSAGE_MAX_LENGTH} characters or less`)
    .nullish()
    .transform((v) => (v == null || v.trim() === '' ? null : v.trim())),
});
export type SubmissionInput = z.input<typeof submissionSchema>;
export type Submission = z.output<typeof submissionSchema>;

export const contactSchema = z.object({
  name: requiredText('Name is required'),
  email: email(),
  subject: z.enum(CONTACT_SUBJECTS.map((s) => s.value) as [ContactSubject, ...ContactSubject[]], { error: 'Please choose a subject' }),
  message: requiredText('Message is required'),
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

export type FieldErrors = Record<string, string>;

export type FormResult<T> = { success: true; data: T } | { success: false; fieldErrors: FieldErrors };

/** Validates a form: the data with unknown fields dropped, or the first message per field. */
export function validateForm<S extends z.ZodType>(schema: S, input: unknown): FormResult<z.output<S>> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return { success: true, data: result.data };
  const fieldErrors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length ? String(issue.path[0]) : 'form';
    if (!(field in fieldErrors)) fieldErrors[field] = issue.message;
  }
  return { success: false, fieldErrors };
}

/** Answers of the form endpoints. */
export interface FormSuccess {
  success: true;
  id?: number;
}
export interface FormFailure {
  success: false;
  error: string;
  fieldErrors?: FieldErrors;
}
