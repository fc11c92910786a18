import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { onPostgres, testDatabaseLocation } from '../../test/testDatabase';
import { openDatabase, type DB } from '../db/connection';
import { bumpDataVersion, dataVersion, publicWrite } from './dataVersion';

describe('the data version', () => {
  const open: DB[] = [];
  let dir: string | undefined;
  afterEach(async () => {
    await Promise.all(open.splice(0).map((db) => db.destroy()));
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  /** Two connections to one database: this process's, and another process's (the moderation CLI, an instance). */
  async function twoConnections(): Promise<[DB, DB]> {
    dir = mkdtempSync(join(tmpdir(), 'data-version-'));
    const location = await testDatabaseLocation(join(dir, 'site.sqlite'));
    const ours = await openDatabase(location);
    const theirs = await openDatabase(location);
    open.push(ours, theirs);
    return [ours, theirs];
  }

  it("sees this process's own bump at once, even within one millisecond", async () => {
    const [db] = await twoConnections();
    const before = await dataVersion(db);
    await bumpDataVersion(db);
    expect(await dataVersion(db)).toBe(before + 1);
    await publicWrite(db, async () => true);
    expect(await dataVersion(db)).toBe(before + 2);
    await publicWrite(db, async () => false);
    expect(await dataVersion(db)).toBe(before + 2);
  });

  it("sees another connection's write a millisecond later", async () => {
    const [db, other] = await twoConnections();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const before = await dataVersion(db);
      // Written as another process's code would, without this module telling this process.
      await sql`UPDATE data_version SET version = version + 1 WHERE id = 1`.execute(other);
      vi.advanceTimersByTime(1);
      expect(await dataVersion(db)).toBe(before + 1);
    } finally {
      vi.useRealTimers();
    }
  });

  it.skipIf(onPostgres)('on SQLite, answers the requests of one millisecond from one read', async () => {
    const [db, other] = await twoConnections();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const held = dataVersion(db);
      // Another process commits within this same millisecond (its bump, written as that process's code would,
      // without this module telling this process): the answers of this millisecond keep the version read...
      await sql`UPDATE data_version SET version = version + 1 WHERE id = 1`.execute(other);
      expect(dataVersion(db)).toBe(held);
      // ...and those of the next one read it again.
      vi.advanceTimersByTime(1);
      expect(dataVersion(db)).toBe((held as number) + 1);
    } finally {
      vi.useRealTimers();
    }
  });
});
