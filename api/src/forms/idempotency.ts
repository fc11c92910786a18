import { createHash } from 'node:crypto';
import type { DB } from '../db/connection';

/** Keys are kept a day: long enough for any retry of a form post, short enough that the table stays small. */
const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

export type Once<R> = { result: R; replayed: boolean } | { conflict: true };

/** A digest of the validated input: a retry must send the same form. */
export function fingerprint(input: unknown): string {
  return createHash('sha256').update(JSON.stringify(input)).digest('base64url');
}

/**
 * Runs `write` at most once per (endpoint, key). The key's row is written in the same transaction as the
 * write, so a write is never committed without its key (a retry after a lost answer finds it) nor the key
 * without the write. IMMEDIATE takes the write lock first, so two processes cannot both miss the key.
 * Without a key, the write simply runs.
 */
export function runOnce<R>(db: DB, endpoint: string, key: string | undefined, input: unknown, write: () => R, now = new Date()): Once<R> {
  if (!key) return { result: write(), replayed: false };
  const digest = fingerprint(input);
  const tx = db.transaction((): Once<R> => {
    const prior = db.prepare('SELECT fingerprint, result FROM idempotency_keys WHERE endpoint = ? AND key = ?').get(endpoint, key) as
      | { fingerprint: string; result: string }
      | undefined;
    if (prior) return prior.fingerprint === digest ? { result: JSON.parse(prior.result) as R, replayed: true } : { conflict: true };
    const result = write();
    db.prepare('INSERT INTO idempotency_keys (endpoint, key, fingerprint, result, created_at) VALUES (?, ?, ?, ?, ?)').run(
      endpoint,
      key,
      digest,
      JSON.stringify(result),
      now.toISOString(),
    );
    db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?').run(new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS).toISOString());
    return { result, replayed: false };
  });
  return tx.immediate();
}
