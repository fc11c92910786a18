import type { DB } from '../db/connection';
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
export function insertEvent(db: DB, e: StoredEvent, retention: EventRetention, now = new Date()): number {
  return db.transaction(() => {
    const id = Number(
      db.prepare('INSERT INTO events (event, data, timestamp, received_at) VALUES (?, ?, ?, ?)').run(e.event, JSON.stringify(e.data), new Date(e.timestamp).toISOString(), now.toISOString())
        .lastInsertRowid,
    );
    db.prepare('DELETE FROM events WHERE id <= ?').run(id - retention.maxRows);
    db.prepare('DELETE FROM events WHERE received_at < ?').run(new Date(now.getTime() - retention.maxAgeDays * DAY_MS).toISOString());
    return id;
  })();
}
