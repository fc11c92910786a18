import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrate } from './migrations';

export type DB = Database.Database;

/** Opens (creating if needed) the database, in WAL mode, with the schema up to date. ':memory:' for tests. */
export function openDatabase(path: string): DB {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // Every acknowledged write is on disk before the answer goes out.
  db.pragma('synchronous = FULL');
  migrate(db);
  return db;
}
