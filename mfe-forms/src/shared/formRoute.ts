/**
 * What the three forms share as route modules: a page post works without JavaScript (the action runs on the
 * server) and with it (the same action runs in the browser), and a repeated post is recognisable.
 */
import { data, redirect, type ActionFunctionArgs } from 'react-router-dom';
import type { z } from 'zod';
import { routeApi, type JsonResult } from '@aitools/platform';
import { TOO_MANY_REQUESTS } from '@aitools/contracts/answers';
import type { FieldErrors, FormFailure } from '@aitools/contracts/forms';
import { readFormBody } from '@aitools/contracts/formBody';
import { IDEMPOTENCY_KEY_FIELD } from '@aitools/contracts/formOptions';
import { normalizeLineBreaks } from '@aitools/contracts/text';

/** The forms' checks (./validation.ts), a module of their own. */
export type Validation = typeof import('./validation');
export const loadValidation = (): Promise<Validation> => import('./validation');
/** Hex of 16 random bytes; anything else posted in its place is replaced. */
const KEY_PATTERN = /^[0-9a-f]{32}$/;

/** The loader's data of every form page: a fresh key for the next post. */
export interface FormPageData {
  idempotencyKey: string;
}

/** A random key for one post. getRandomValues (unlike randomUUID) also works on plain http and in Node. */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function formPageLoader(): FormPageData {
  return { idempotencyKey: newIdempotencyKey() };
}

/** What an action answers when the page must show the form again: the errors and the visitor's values, kept. */
export interface FormActionData<V> {
  fieldErrors: FieldErrors;
  values: V;
  /** The key of this post, so that a retry of a failed send is recognisable as the same post. */
  idempotencyKey: string;
  /** The send itself failed (the page shows its error banner or message). */
  formError?: string;
}

/** A read post: its values and key, or (a body that is not a readable web form) the status and reason of its refusal. */
export type Post<V> = { values: V; idempotencyKey: string } & (
  { ok: true } | { ok: false; status: number; reason: string }
);

/** The posted text fields named in `empty` (a missing field is its empty value), and the post's key. */
export async function readPost<V extends Record<string, string>>(request: Request, empty: V): Promise<Post<V>> {
  const body = await readFormBody(request);
  if (!body.ok)
    return {
      ok: false,
      values: { ...empty },
      idempotencyKey: newIdempotencyKey(),
      status: body.status,
      reason: body.reason,
    };
  const text = (name: string) => body.fields.get(name) ?? null;
  const values = { ...empty };
  // A form posts line breaks as CR LF; kept as LF, the values count as the checks and the browser count them.
  for (const name of Object.keys(empty) as (keyof V & string)[])
    values[name] = normalizeLineBreaks(text(name) ?? empty[name]) as V[typeof name];
  const key = text(IDEMPOTENCY_KEY_FIELD);
  return { ok: true, values, idempotencyKey: key && KEY_PATTERN.test(key) ? key : newIdempotencyKey() };
}

/** The page again, with the refusal as its form-level message (400 or 415: the visitor's client sent what no form sends). */
export function refusedPost<V>(post: Extract<Post<V>, { ok: false }>) {
  return data<FormActionData<V>>(
    { fieldErrors: {}, values: post.values, idempotencyKey: post.idempotencyKey, formError: post.reason },
    { status: post.status },
  );
}

/** The API's answer, or 'unreachable' when the request itself failed (network, offline). */
export type SendResult = JsonResult<FormFailure> | 'unreachable';

/** Posts a validated form to the API with its key, as the header and in the body (the API drops unknown fields). */
export async function sendForm(
  context: unknown,
  path: string,
  body: object,
  idempotencyKey: string,
): Promise<SendResult> {
  try {
    return await routeApi(context).fetchJson<FormFailure>(path, {
      method: 'POST',
      body: { ...body, [IDEMPOTENCY_KEY_FIELD]: idempotencyKey },
      headers: { 'Idempotency-Key': idempotencyKey },
    });
  } catch {
    return 'unreachable';
  }
}

/** The API refuses a key already used with other data (docs/reliability.md, Idempotency). */
const KEY_REUSED_STATUS = 422;

/** The page's status for a send that failed: the API's error status, or 503 when it could not be reached. */
export function failedStatus(result: SendResult): number {
  return result !== 'unreachable' && result.status >= 400 ? result.status : 503;
}

/** One form's post, as its page action handles it. */
export interface FormPost<V extends Record<string, string>> {
  /** The posted fields, each with its value when missing. */
  empty: V;
  /** Its schema, from the checks once they are loaded. */
  schema: (v: Validation) => z.ZodType;
  /** The API endpoint the checked form is sent to. */
  apiPath: string;
  /** Where a sent form lands: a refresh of that page sends nothing again. */
  sentPath: string;
  /** The page's form-level message, and the field errors it shows, when the send failed. */
  failure: (sent: SendResult) => { fieldErrors: FieldErrors; formError: string };
}

/**
 * A form page's action: the post is read, checked with the shared schema, sent to the API with its key, then
 * redirected (post/redirect/get, 303); a refused, invalid or failed post shows the page again with the values kept.
 */
export async function formAction<V extends Record<string, string>>(
  { request, context }: ActionFunctionArgs,
  form: FormPost<V>,
) {
  const post = await readPost(request, form.empty);
  if (!post.ok) return refusedPost(post);
  const { values, idempotencyKey } = post;
  const v = await loadValidation();
  const checked = v.validateForm(form.schema(v), values);
  if (!checked.success)
    return data<FormActionData<V>>({ fieldErrors: checked.fieldErrors, values, idempotencyKey }, { status: 400 });
  let key = idempotencyKey;
  let sent = await sendForm(context, form.apiPath, checked.data as object, key);
  // The key went with other values, whose answer was lost: these edited values are another post, with a key of
  // their own (unchanged values keep the key, so the lost post is answered, not stored twice).
  if (sent !== 'unreachable' && sent.status === KEY_REUSED_STATUS) {
    key = newIdempotencyKey();
    sent = await sendForm(context, form.apiPath, checked.data as object, key);
  }
  if (sent !== 'unreachable' && sent.ok) return redirect(form.sentPath, 303);
  const failure =
    sent !== 'unreachable' && sent.status === 429
      ? { fieldErrors: {}, formError: TOO_MANY_REQUESTS } // over the form's budget: the API's own words
      : form.failure(sent);
  return data<FormActionData<V>>({ ...failure, values, idempotencyKey: key }, { status: failedStatus(sent) });
}
