/**
 * Purges of the shared caches (PURGE_URLS), by key: a remote's release (`blog@<id>`), the public data (`data`), the
 * canary sides (`sides`). A change writes its keys into the edge_purges table (the data's in the same transaction as
 * the data version's bump), and one instance sends each: it claims the rows for a lease, sends
 * `PURGE /` with `Surrogate-Key: <keys>` to every cache, and deletes them once every cache said 2xx. A cache that is
 * down is asked again with backoff; a second change of a key while it is sent makes it go again. A release's purge
 * goes out a second time once every instance has seen the release change (RELEASE_SEEN_MS): a page an instance
 * rendered from the old release just after the first purge is not kept either. The table holds one
 * row per key, and a row older than a page's longest life in a cache (STALE_IF_ERROR_SECONDS) is dropped unsent: the
 * pages it would purge are gone by then. docs/operations.md, A shared cache in front.
 */
import type { Logger } from 'pino';
import type { DB } from '../db/connection';
import { SHARED_SECONDS, STALE_IF_ERROR_SECONDS } from './headers';

/** A claim lasts this long: an instance that stops while sending leaves its rows to another after it. */
const LEASE_MS = 15_000;
/** Rows sent per request to a cache. */
const BATCH = 100;
/** How long a cache gets to answer a purge. */
const SEND_TIMEOUT_MS = 5_000;
/** Backoff after a failed send: doubling from the first, up to the last. */
const FIRST_RETRY_MS = 250;
const LAST_RETRY_MS = 30_000;
/** A purge no cache took within a page's longest life there is pointless. */
const MAX_AGE_MS = (SHARED_SECONDS + STALE_IF_ERROR_SECONDS) * 1000;
/** Another instance's (or a command's) change is seen within this. */
export const PURGE_POLL_MS = 500;

const kicks = new Set<() => void>();

/** Queues purges of `keys` (in the caller's transaction when it holds one); this process's purger sends them at once,
 *  and again `againAfterMs` later when given. */
export async function queuePurge(db: DB, keys: readonly string[], opts: { againAfterMs?: number } = {}): Promise<void> {
  const now = Date.now();
  const again = opts.againAfterMs ? { again_at: now + opts.againAfterMs } : {};
  for (const key of new Set(keys)) {
    await db
      .insertInto('edge_purges')
      .values({
        key,
        generation: 1,
        queued_at: now,
        next_at: now,
        attempts: 0,
        claimed_until: 0,
        again_at: 0,
        ...again,
      })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({
          generation: eb('edge_purges.generation', '+', 1),
          // A row's age is its newest change's: only pages fetched before that one need the purge.
          queued_at: now,
          next_at: now,
          attempts: 0,
          ...again,
        })),
      )
      .execute();
  }
  // After the caller's transaction has committed (a pass before it finds the rows on its next poll).
  setImmediate(() => kicks.forEach((kick) => kick()));
}

export interface Purger {
  /** One pass: claims the due rows and sends them; answers how many keys went out. */
  pass(): Promise<number>;
  stop(): void;
}

export function createPurger(opts: {
  db: DB;
  urls: readonly string[];
  logger: Pick<Logger, 'warn'>;
  /** How often to look for rows (0: only when a change in this process kicks, or when asked). */
  pollMs?: number;
  send?: (url: string, keys: string) => Promise<boolean>;
}): Purger {
  const { db, urls, logger } = opts;
  const send = opts.send ?? sendPurge;
  let running: Promise<number> | null = null;
  let again = false;

  async function once(): Promise<number> {
    const now = Date.now();
    await db
      .deleteFrom('edge_purges')
      .where('queued_at', '<', now - MAX_AGE_MS)
      .execute();
    // Claimed under the row locks: of instances claiming together, each row goes to one.
    const rows = await db
      .updateTable('edge_purges')
      .set({ claimed_until: now + LEASE_MS })
      .where('key', 'in', (qb) =>
        qb
          .selectFrom('edge_purges')
          .select('key')
          .where('next_at', '<=', now)
          .where('claimed_until', '<', now)
          .orderBy('queued_at')
          .limit(BATCH),
      )
      .where('claimed_until', '<', now)
      .returning(['key', 'generation', 'attempts', 'again_at'])
      .execute();
    if (!rows.length) return 0;
    const keys = rows.map((r) => r.key);
    const sent = await Promise.all(urls.map((url) => send(url, keys.join(' ')).catch(() => false)));
    if (sent.every(Boolean)) {
      for (const r of rows) {
        if (Number(r.again_at))
          await db
            .updateTable('edge_purges')
            .set({ next_at: r.again_at, again_at: 0 })
            .where('key', '=', r.key)
            .where('generation', '=', r.generation)
            .execute();
        else
          await db.deleteFrom('edge_purges').where('key', '=', r.key).where('generation', '=', r.generation).execute();
      }
      // A key changed again while it was sent goes again.
      await db.updateTable('edge_purges').set({ claimed_until: 0 }).where('key', 'in', keys).execute();
      return rows.length;
    }
    const attempts = Math.max(...rows.map((r) => Number(r.attempts))) + 1;
    const wait = Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** (attempts - 1));
    logger.warn(
      { caches: urls.filter((_, i) => !sent[i]), keys, attempts, retryInMs: wait },
      'shared cache did not take a purge; trying again',
    );
    await db
      .updateTable('edge_purges')
      .set({ claimed_until: 0, attempts, next_at: Date.now() + wait })
      .where('key', 'in', keys)
      .execute();
    return 0;
  }

  const pass = (): Promise<number> => {
    if (running) {
      again = true;
      return running;
    }
    running = once()
      .catch((err: unknown) => {
        logger.warn({ err }, 'purge pass failed; trying again');
        return 0;
      })
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          void pass();
        }
      });
    return running;
  };
  const kick = () => void pass();
  kicks.add(kick);
  const timer = opts.pollMs ? setInterval(kick, opts.pollMs) : null;
  timer?.unref();
  return {
    pass,
    stop() {
      kicks.delete(kick);
      if (timer) clearInterval(timer);
    },
  };
}

/** One purge request; true when the cache took it (2xx). */
async function sendPurge(url: string, keys: string): Promise<boolean> {
  const res = await fetch(url, {
    method: 'PURGE',
    headers: { 'surrogate-key': keys },
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
  });
  await res.arrayBuffer().catch(() => undefined);
  return res.ok;
}
