/**
 * The API's one JSON answer shape, for every endpoint under /api.
 *
 * - Success: `{ success: true, ...payload }`. A list or a record goes under `data` (GET /api/tools, the blog), a
 *   page of results adds its counts beside it (GET /api/tools/query), a created record gives its `id`
 *   (POST /api/submissions), an acknowledgement carries nothing more (contact, early access, events).
 * - Failure: `{ success: false, error, fieldErrors? }`, with the HTTP status saying which: 400 with the first
 *   message per field, 404, 413, 429, 500. `error` is safe to show a visitor; internals are never in it.
 *
 * One exception, fixed by docs/product.md (API calls): GET /api/tools/{slug} answers the bare tool record
 * with 200 (and the failure shape with 404), as the tool pages and link-preview tools read it.
 * The registry (/v0.1) follows the MCP registry's own format instead; feeds and the sitemap are XML.
 */
export type FieldErrors = Record<string, string>;

/** A 429's `error` (docs/product.md, Write rules), which the forms show a visitor as it is. */
export const TOO_MANY_REQUESTS = 'Too many requests. Please wait a minute and try again.';

export type Success<Payload extends object = object> = { success: true } & Payload;

export interface Failure {
  success: false;
  error: string;
  fieldErrors?: FieldErrors;
}

export type Answer<Payload extends object = object> = Success<Payload> | Failure;

export const success = <Payload extends object>(payload: Payload): Success<Payload> => ({ success: true, ...payload });

export const failure = (error: string, fieldErrors?: FieldErrors): Failure => ({
  success: false,
  error,
  ...(fieldErrors ? { fieldErrors } : {}),
});
