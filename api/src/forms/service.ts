/**
 * The form writes, callable in process (the API router and server-side form actions both use them):
 * validate with the shared schema, then store once per idempotency key. Nothing is stored on failure.
 */
import type { z } from 'zod';
import type { DB } from '../db/connection';
import {
  contactSchema,
  EARLY_ACCESS_SOURCE,
  EARLY_ACCESS_TYPE,
  earlyAccessSchema,
  idempotencyKeySchema,
  submissionSchema,
  validateForm,
  type FieldErrors,
} from '@aitools/contracts/forms';
import { runOnce } from './idempotency';
import { insertContactMessage, insertEarlyAccess, insertSubmission } from './repository';

export type WriteResult =
  | {
      ok: true;
      id: number;
      /** true when this answers a retry of an earlier post with the same key */ replayed: boolean;
    }
  | { ok: false; fieldErrors: FieldErrors; /** the key was already used with other data */ conflict?: true };

export interface WriteOptions {
  /** From the Idempotency-Key header or the form's hidden field; absent means "no retry protection". */
  idempotencyKey?: unknown;
}

const KEY_REUSED = 'This idempotency key was already used for a different request';

/** The form's validated data and key, or its field errors: what every write checks before anything else. */
export function checkForm<S extends z.ZodType>(
  schema: S,
  input: unknown,
  idempotencyKey: unknown,
): { ok: true; data: z.output<S>; key: string | undefined } | { ok: false; fieldErrors: FieldErrors } {
  const form = validateForm(schema, input);
  const key =
    idempotencyKey == null || idempotencyKey === ''
      ? { success: true as const, data: undefined }
      : idempotencyKeySchema.safeParse(idempotencyKey);
  if (form.success && key.success) return { ok: true, data: form.data, key: key.data };
  const fieldErrors = form.success ? {} : { ...form.fieldErrors };
  if (!key.success) fieldErrors.idempotencyKey = key.error.issues[0].message;
  return { ok: false, fieldErrors };
}

async function write<S extends z.ZodType, R extends { id: number }>(
  db: DB,
  endpoint: string,
  schema: S,
  input: unknown,
  opts: WriteOptions,
  store: (trx: DB, data: z.output<S>) => Promise<R>,
): Promise<({ ok: true; replayed: boolean } & R) | Extract<WriteResult, { ok: false }>> {
  const checked = checkForm(schema, input, opts.idempotencyKey);
  if (!checked.ok) return checked;
  const once = await runOnce(db, endpoint, checked.key, checked.data, (trx) => store(trx, checked.data));
  if ('conflict' in once) return { ok: false, fieldErrors: { idempotencyKey: KEY_REUSED }, conflict: true };
  return { ok: true, replayed: once.replayed, ...once.result };
}

/** /submit: a pending tool submission. */
export function submitTool(db: DB, input: unknown, opts: WriteOptions = {}): Promise<WriteResult> {
  return write(db, 'submissions', submissionSchema, input, opts, async (trx, data) => ({
    id: await insertSubmission(trx, data),
  }));
}

/** /contact: a message to the operators. */
export function sendContactMessage(db: DB, input: unknown, opts: WriteOptions = {}): Promise<WriteResult> {
  return write(db, 'contact', contactSchema, input, opts, async (trx, data) => ({
    id: await insertContactMessage(trx, data),
  }));
}

/** /advertise: an early-access subscriber, once per email; `created` is false when the address was already listed. */
export function joinEarlyAccess(
  db: DB,
  input: unknown,
  opts: WriteOptions = {},
): Promise<
  (WriteResult & { ok: false }) | { ok: true; id: number; replayed: boolean; created: boolean; email: string }
> {
  return write(db, 'early-access', earlyAccessSchema, input, opts, async (trx, { email }) => ({
    ...(await insertEarlyAccess(trx, {
      email,
      timestamp: new Date().toISOString(),
      type: EARLY_ACCESS_TYPE,
      source: EARLY_ACCESS_SOURCE,
    })),
    email,
  }));
}
