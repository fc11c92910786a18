import { createHash } from 'node:crypto';
import { inTransaction, type DB } from '../db/connection';

/** Keys are kept a day: long enough for any retry of a form post, short enough that the table stays small. */
const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

export type Once<R> = { result: R; replayed: boolean } | { conflict: true };

/** A digest of the validated input: a retry must send the same form. */
export function fingerprint(input: unknown): string {
  return createHash('sha256').update(JSON.stringify(input)).digest('base64url');
}

/**
 * Runs `write` at most once per (endpoint, key). The key's row is claimed first, in the same transaction as the
 * write: a write is never committed without its key (a retry after a lost answer finds it) nor the key without the
 * write. The claim is an insert, so two requests with one key (on one instance or two) cannot both run the write:
 * the second waits for the first's transaction (Postgres) or the database lock (SQLite), then finds its row.
 * Without a key, the write simply runs.
 */
export async function runOnce<R>(
  db: DB,
  endpoint: string,
  key: string | undefined,
  input: unknown,
  write: (trx: DB) => Promise<R>,
  now = new Date(),
): Promise<Once<R>> {
  if (!key) return { result: await write(db), replayed: false };
  const digest = fingerprint(input);
  return inTransaction(db, async (trx): Promise<Once<R>> => {
    const claimed = await trx
      .insertInto('idempotency_keys')
      .values({ endpoint, key, fingerprint: digest, result: '', created_at: now.toISOString() })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) {
      const prior = await trx
        .selectFrom('idempotency_keys')
        .select(['fingerprint', 'result'])
        .where('endpoint', '=', endpoint)
        .where('key', '=', key)
        .executeTakeFirstOrThrow();
      return prior.fingerprint === digest
        ? { result: JSON.parse(prior.result) as R, replayed: true }
        : { conflict: true };
    }
    const result = await write(trx);
    await trx
      .updateTable('idempotency_keys')
      .set({ result: JSON.stringify(result) })
      .where('endpoint', '=', endpoint)
      .where('key', '=', key)
      .execute();
    await trx
      .deleteFrom('idempotency_keys')
      .where('created_at', '<', new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS).toISOString())
      .execute();
    return { result, replayed: false };
  });
}
