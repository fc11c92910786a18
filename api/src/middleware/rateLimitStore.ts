/**
 * An express-rate-limit store on the site's database: every instance on one database counts against one limit
 * (the default memory store counts per process, so N instances would allow N times the limit). One atomic upsert
 * per counted request; a window that has ended restarts at 1.
 */
import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import type { DB } from '../db/connection';
import type { RateLimitBudget, RateLimitStoreFactory } from './rateLimit';

/** Rows of ended windows are removed now and then (every this many increments), never on each request. */
const SWEEP_EVERY = 500;

export function databaseRateLimitStore(db: DB, budget: RateLimitBudget): Store {
  let windowMs = 60_000;
  let sinceSweep = 0;
  const rowKey = (key: string) => `${budget}:${key}`;
  return {
    localKeys: false,
    prefix: `${budget}:`,
    init(options: Options) {
      windowMs = options.windowMs;
    },
    async increment(key): Promise<ClientRateLimitInfo> {
      const now = Date.now();
      const row = await db
        .insertInto('rate_limits')
        .values({ key: rowKey(key), hits: 1, reset_at: now + windowMs })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet((eb) => {
            const ended = eb('rate_limits.reset_at', '<=', now);
            return {
              hits: eb
                .case()
                .when(ended)
                .then(1)
                .else(eb('rate_limits.hits', '+', 1))
                .end(),
              reset_at: eb
                .case()
                .when(ended)
                .then(now + windowMs)
                .else(eb.ref('rate_limits.reset_at'))
                .end(),
            };
          }),
        )
        .returning(['hits', 'reset_at'])
        .executeTakeFirstOrThrow();
      if (++sinceSweep >= SWEEP_EVERY) {
        sinceSweep = 0;
        await db.deleteFrom('rate_limits').where('reset_at', '<', now).execute();
      }
      return { totalHits: Number(row.hits), resetTime: new Date(Number(row.reset_at)) };
    },
    async decrement(key) {
      await db
        .updateTable('rate_limits')
        .set((eb) => ({ hits: eb('hits', '-', 1) }))
        .where('key', '=', rowKey(key))
        .where('hits', '>', 0)
        .execute();
    },
    async resetKey(key) {
      await db.deleteFrom('rate_limits').where('key', '=', rowKey(key)).execute();
    },
  };
}

export const databaseRateLimits =
  (db: DB): RateLimitStoreFactory =>
  (budget) =>
    databaseRateLimitStore(db, budget);
