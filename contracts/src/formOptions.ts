/**
 * What the three public forms show and post besides their checks: field lengths, choices, the idempotency key's
 * names. No zod here, so a page can render a form without loading its schema (forms.ts holds the checks and
 * re-exports all of this).
 */

/**
 * Maximum lengths (UTF-16 code units, as the browser's maxLength counts) of every text field, for the inputs'
 * maxLength and for the schemas (forms.ts).
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
/** A fresh key for one form render (random, 122 bits). */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  // randomUUID exists only in secure contexts; getRandomValues everywhere.
  return Array.from(c.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

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

/** The record kept for an early-access subscriber (locally in the browser and in the database). */
export interface EarlyAccessRecord {
  email: string;
  timestamp: string;
  type: typeof EARLY_ACCESS_TYPE;
  source: typeof EARLY_ACCESS_SOURCE;
}
