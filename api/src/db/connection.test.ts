import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DB } from './connection';

describe('SQLite transactions', () => {
  let db: DB | undefined;
  let other: Database.Database | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    other?.close();
    await db?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
    db = other = dir = undefined;
  });

  it('hold the write lock from the start, so another process writing meanwhile never fails them', async () => {
    dir = mkdtempSync(join(tmpdir(), 'sqlite-transactions-'));
    const file = join(dir, 'site.sqlite');
    db = await openDatabase(file);
    // Another process on the same file (the moderation CLI, another instance), that does not wait for locks.
    other = new Database(file);
    other.pragma('busy_timeout = 0');
    const version = () => other!.prepare('SELECT version FROM data_version WHERE id = 1').pluck().get() as number;
    const before = version();

    await db.transaction().execute(async (trx) => {
      await sql`SELECT version FROM data_version`.execute(trx);
      // A deferred transaction would let this write in, then fail its own below ("database is locked", at once).
      expect(() => other!.prepare('UPDATE data_version SET version = version + 100').run()).toThrow(/locked|busy/i);
      await sql`UPDATE data_version SET version = version + 1`.execute(trx);
    });

    expect(version()).toBe(before + 1);
    // Once it has committed, the other process writes as usual.
    other.prepare('UPDATE data_version SET version = version + 100').run();
    expect(version()).toBe(before + 101);
  });
});
