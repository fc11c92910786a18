import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type DB } from '../db/connection';
import { storedReleases } from '../../test/storedReleases';
import { testDatabaseLocation } from '../../test/testDatabase';
import { manifestPath, writeManifestAtomic } from './manifestFile';
import { databaseManifestStore } from './manifestStore';
import type { ManifestStore } from './manifest';
import { listReleases, rollback } from './store';
import { localStores } from './openReleaseStore';

// Runs on the test database: an SQLite file by default, a Postgres schema when TEST_DATABASE_URL is set (where
// instances also hear each other through LISTEN/NOTIFY).
let dir: string;
let location: string;
const opened: { close(): Promise<void> }[] = [];
const open = async (): Promise<DB> => {
  const db = await openDatabase(location);
  opened.push({ close: () => db.destroy().catch(() => {}) });
  return db;
};
const store = async (db: DB, opts: Parameters<typeof databaseManifestStore>[1] = {}): Promise<ManifestStore> => {
  const s = await databaseManifestStore(db, opts);
  opened.unshift(s);
  return s;
};
const event = (id: string, action: 'release' | 'rollback' = 'release') => ({
  action,
  id,
  at: new Date().toISOString(),
  by: 'test',
});

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'manifest-store-'));
  location = await testDatabaseLocation(join(dir, 'site.sqlite'));
});
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the release manifest as database rows', () => {
  it('records each release and rollback as a row: the active release and the history with where it came from', async () => {
    const manifests = await store(await open());
    await manifests.record('legal', event('r1'));
    await manifests.record('legal', event('r2'));
    await manifests.record('blog', event('b1'));
    const m = await manifests.record('legal', event('r1', 'rollback'));
    expect(m.remotes.legal!.active).toBe('r1');
    expect(m.remotes.legal!.history.map((e) => [e.action, e.from, e.id])).toEqual([
      ['release', null, 'r1'],
      ['release', 'r1', 'r2'],
      ['rollback', 'r2', 'r1'],
    ]);
    expect(manifests.read()).toMatchObject({ ok: true, manifest: { remotes: { blog: { active: 'b1' } } } });
  });

  it('a change made by one instance (or an operator command) reaches another without a restart', async () => {
    const other = await store(await open(), { listenUrl: location, pollMs: 100 });
    const operator = await store(await open());
    await operator.record('directory', event('d1'));
    // Eventually, not at once: the other instance learns it from a notification or its version check.
    await vi.waitFor(() => expect(other.read().manifest.remotes.directory?.active).toBe('d1'), { timeout: 2000 });
  });

  it("tells its listeners (the served releases) of its own writes at once, and of another instance's when it hears", async () => {
    const mine = await store(await open(), { listenUrl: location, pollMs: 50 });
    const heard: string[] = [];
    mine.onChange(() => heard.push(mine.read().manifest.remotes.legal?.active ?? '-'));
    await mine.record('legal', event('r1'));
    expect(heard.at(-1)).toBe('r1');
    const operator = await store(await open());
    await operator.record('legal', event('r2'));
    await vi.waitFor(() => expect(heard.at(-1)).toBe('r2'), { timeout: 2000 });
  });

  it('pnpm rollback works against the rows and leaves manifest.json alone', async () => {
    const releasesDir = join(dir, 'releases');
    storedReleases(releasesDir, 'legal', ['v1', 'v2']);
    const manifests = await store(await open());
    await manifests.record('legal', event('v1'));
    await manifests.record('legal', event('v2'));
    expect(await rollback('legal', { ...localStores(releasesDir), manifests })).toMatchObject({
      remote: 'legal',
      from: 'v2',
      to: 'v1',
      state: { active: 'v1' },
    });
    expect(manifests.read().manifest.remotes.legal!.active).toBe('v1');
    expect((await listReleases({ ...localStores(releasesDir), manifests }, 'legal')).find((r) => r.active)?.id).toBe(
      'v1',
    );
    await expect(rollback('legal', { ...localStores(releasesDir), manifests, to: 'v9' })).rejects.toThrow(
      /Unknown release "v9" for legal/,
    );
    expect(existsSync(manifestPath(releasesDir))).toBe(false);
  });

  it('takes over the history of manifest.json once, when the table is empty', async () => {
    const releasesDir = join(dir, 'releases');
    writeManifestAtomic(releasesDir, {
      version: 1,
      remotes: {
        blog: {
          active: 'b2',
          history: [
            { action: 'release', id: 'b1', from: null, at: 'a', by: 'x' },
            { action: 'release', id: 'b2', from: 'b1', at: 'b', by: 'x' },
          ],
        },
      },
    });
    const first = await store(await open(), { importFrom: releasesDir });
    expect(first.read().manifest.remotes.blog).toEqual({
      active: 'b2',
      history: expect.arrayContaining([expect.objectContaining({ id: 'b2', from: 'b1' })]),
    });
    await first.record('blog', event('b3'));
    // A second instance starting later does not import it again.
    const second = await store(await open(), { importFrom: releasesDir });
    expect(second.read().manifest.remotes.blog!.history.map((e) => e.id)).toEqual(['b1', 'b2', 'b3']);
  });

  it('keeps serving the state it knows when the database cannot be read, and says so', async () => {
    const db = await open();
    const manifests = await store(db, { pollMs: 20 });
    await manifests.record('forms', event('f1'));
    await db.destroy();
    await vi.waitFor(() => expect(manifests.read().ok).toBe(false), { timeout: 2000 });
    const read = manifests.read();
    expect(read).toMatchObject({
      ok: false,
      servingFrom: 'last-good',
      manifest: { remotes: { forms: { active: 'f1' } } },
    });
    expect(read.problem).toMatch(/the release database cannot be read/);
  });
});
