import { inTransaction, type DB } from '../db/connection';
import type { StoredEvent } from './schema';

export interface EventRetention {
  /** Newest rows kept. */
  maxRows: number;
  /** Rows received longer ago than this are removed. */
  maxAgeDays: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Stores one event and, in the same transaction, prunes by count and by age, so the table never holds more
 * than `maxRows` rows nor rows older than `maxAgeDays` (both deletes walk an index: cheap when nothing is due).
 */
export function insertEvent(db: DB, e: StoredEvent, retention: EventRetention, now = new Date()): Promise<number> {
  return inTransaction(db, async (trx) => {
    const { id } = await trx
      .insertInto('events')
      .values({
        event: e.event,
        data: JSON.stringify(e.data),
        timestamp: new Date(e.timestamp).toISOString(),
        received_at: now.toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .deleteFrom('events')
      .where('id', '<=', id - retention.maxRows)
      .execute();
    await trx
      .deleteFrom('events')
      .where('received_at', '<', new Date(now.getTime() - retention.maxAgeDays * DAY_MS).toISOString())
      .execute();
    return id;
  });
}
