import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONTRACT_VERSION } from '@aitools/platform/contract';
import { openDatabase, type DB } from '../db/connection';
import { countRows, testDatabaseLocation } from '../../test/testDatabase';
import { databaseReleaseStore } from './dbReleaseStore';
import { diskReleaseStore } from './diskReleaseStore';
import { checkRelease } from './health';
import type { ReleaseMeta } from './manifest';
import { openReleaseStore } from './openReleaseStore';
import type { ReleaseStore } from './releaseStore';

// The database backend runs on the test database: an SQLite file by default, a Postgres schema when
// TEST_DATABASE_URL is set (docs/testing.md).
let dir: string;
let location: string;
const dbs: DB[] = [];
const open = async () => {
  const db = await openDatabase(location);
  dbs.push(db);
  return db;
};

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'release-store-'));
  location = await testDatabaseLocation(join(dir, 'site.sqlite'));
});
afterEach(async () => {
  for (const db of dbs.splice(0)) await db.destroy().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/** A checked release folder (as store.ts hands it over) with a chunk shared by every release and one of its own. */
function built(id: string, day = 1): { dir: string; meta: ReleaseMeta; files: Record<string, string> } {
  const files: Record<string, string> = {
    'client/remoteEntry.js': `export const id = '${id}';`,
    'client/shared-chunk.js': 'export const shared = true;',
    [`client/own-${id}.js`]: `export const own = '${id}';`,
    'server/entry.mjs': `export default { remote: 'blog', routes: {} };`,
  };
  const at = join(dir, 'builds', id);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(at, path)), { recursive: true });
    writeFileSync(join(at, path), text);
  }
  const meta: ReleaseMeta = {
    id,
    remote: 'blog',
    version: '1.0.0',
    builtAt: `2026-01-0${day}T00:00:00.000Z`,
    sourceHash: id,
    shared: {},
    css: [],
    contractVersion: CONTRACT_VERSION,
    files: {
      'client/remoteEntry.js': digest(files['client/remoteEntry.js']!),
      'server/entry.mjs': digest(files['server/entry.mjs']!),
    },
  };
  return { dir: at, meta, files };
}

const backends: [string, (releasesDir: string) => Promise<ReleaseStore>][] = [
  ['folders (SQLite)', async (releasesDir) => diskReleaseStore(releasesDir)],
  ['database rows', async (releasesDir) => databaseReleaseStore(await open(), releasesDir)],
];

describe.each(backends)('the release store on %s', (_, make) => {
  it('stores a release whole into the local copy, lists releases newest first, and never reuses an id', async () => {
    const local = join(dir, 'releases');
    const store = await make(local);
    const one = built('r1', 1);
    const two = built('r2', 2);
    await store.put(one.dir, one.meta);
    await store.put(two.dir, two.meta);
    expect(checkRelease(local, 'blog', 'r1').ok).toBe(true);
    expect(readFileSync(join(local, 'blog', 'r2', 'client', 'own-r2.js'), 'utf8')).toBe(two.files['client/own-r2.js']);
    expect((await store.list('blog')).map((m) => m.id)).toEqual(['r2', 'r1']);
    expect(await store.meta('blog', 'r1')).toMatchObject({ id: 'r1', remote: 'blog' });
    expect(await store.meta('blog', 'r9')).toBeNull();

    const again = built('r1', 3);
    await expect(store.put(again.dir, again.meta)).rejects.toMatchObject({ status: 409 });
    expect((await store.meta('blog', 'r1'))?.builtAt).toBe(one.meta.builtAt);

    await store.remove('blog', ['r1']);
    expect((await store.list('blog')).map((m) => m.id)).toEqual(['r2']);
    expect(existsSync(join(local, 'blog', 'r1'))).toBe(false);
  });
});

describe('release files as database rows', () => {
  it('a file two releases share is stored once, and pruning removes only contents no release refers to', async () => {
    const db = await open();
    const store = await databaseReleaseStore(db, join(dir, 'releases'));
    for (const [i, id] of ['r1', 'r2'].entries()) {
      const b = built(id, i + 1);
      await store.put(b.dir, b.meta);
    }
    // remoteEntry, own chunk: one each; the shared chunk and the server entry: once for both.
    expect(await countRows(db, 'release_paths')).toBe(8);
    expect(await countRows(db, 'release_contents')).toBe(6);
    await store.remove('blog', ['r1']);
    expect(await countRows(db, 'release_contents')).toBe(4);
    await store.remove('blog', ['r2']);
    expect(await countRows(db, 'release_contents')).toBe(0);
  });

  it('a release whose files cannot all be read leaves no row (there whole or not at all)', async () => {
    const db = await open();
    const store = await databaseReleaseStore(db, join(dir, 'releases'));
    const b = built('r1');
    symlinkSync(join(dir, 'nowhere'), join(b.dir, 'client', 'dangling.js'));
    await expect(store.put(b.dir, b.meta)).rejects.toThrow();
    expect(await countRows(db, 'stored_releases')).toBe(0);
    expect(await countRows(db, 'release_contents')).toBe(0);
    expect(await store.meta('blog', 'r1')).toBeNull();
  });

  it('another instance fetches a release into its own empty folder on first need, and refills what goes missing or is changed', async () => {
    const a = await databaseReleaseStore(await open(), join(dir, 'a'));
    const bDir = join(dir, 'b');
    const b = await databaseReleaseStore(await open(), bDir);
    const r = built('r1');
    await a.put(r.dir, r.meta);
    expect(existsSync(join(bDir, 'blog', 'r1'))).toBe(false);

    expect(await b.materialise('blog', 'r1')).toBe(true);
    for (const [path, text] of Object.entries(r.files))
      expect(readFileSync(join(bDir, 'blog', 'r1', path), 'utf8')).toBe(text);
    expect(checkRelease(bDir, 'blog', 'r1').ok).toBe(true);

    // The whole folder removed, one chunk removed, an entry changed: each comes back.
    rmSync(join(bDir, 'blog'), { recursive: true });
    expect(await b.materialise('blog', 'r1')).toBe(true);
    rmSync(join(bDir, 'blog', 'r1', 'client', 'shared-chunk.js'));
    expect(await b.materialise('blog', 'r1', 'client/shared-chunk.js')).toBe(true);
    expect(readFileSync(join(bDir, 'blog', 'r1', 'client', 'shared-chunk.js'), 'utf8')).toBe(
      r.files['client/shared-chunk.js'],
    );
    writeFileSync(join(bDir, 'blog', 'r1', 'client', 'remoteEntry.js'), 'tampered');
    expect(checkRelease(bDir, 'blog', 'r1').ok).toBe(false);
    expect(await b.materialise('blog', 'r1')).toBe(true);
    expect(checkRelease(bDir, 'blog', 'r1').ok).toBe(true);

    // Nothing to fetch: an unknown release, a file the release does not have.
    expect(await b.materialise('blog', 'r9')).toBe(false);
    expect(await b.materialise('blog', 'r1', 'client/no-such-chunk.js')).toBe(false);
  });

  it('removes the local copies of releases pruned through another instance, and only those', async () => {
    const a = await databaseReleaseStore(await open(), join(dir, 'a'));
    const bDir = join(dir, 'b');
    const b = await databaseReleaseStore(await open(), bDir);
    for (const [i, id] of ['r1', 'r2'].entries()) {
      const r = built(id, i + 1);
      await a.put(r.dir, r.meta);
      expect(await b.materialise('blog', id)).toBe(true);
    }
    expect(await b.tidy()).toEqual([]);
    await a.remove('blog', ['r1']);
    expect(await b.tidy()).toEqual(['blog/r1']);
    expect(existsSync(join(bDir, 'blog', 'r1'))).toBe(false);
    expect(checkRelease(bDir, 'blog', 'r2').ok).toBe(true);
  });

  it('refuses a stored file whose bytes are not the content its row names, and keeps the local copy as it was', async () => {
    const db = await open();
    const a = await databaseReleaseStore(db, join(dir, 'a'));
    const r = built('r1');
    await a.put(r.dir, r.meta);
    await db
      .updateTable('release_contents')
      .set({ bytes: Buffer.from('not the chunk') })
      .where('sha256', '=', digest(r.files['client/shared-chunk.js']!))
      .execute();
    const bDir = join(dir, 'b');
    const b = await databaseReleaseStore(db, bDir);
    await expect(b.materialise('blog', 'r1')).rejects.toThrow(/is not what its row names/);
    expect(existsSync(join(bDir, 'blog', 'r1'))).toBe(false);
  });

  it("takes over the folder's intact releases once, when it holds none yet", async () => {
    const db = await open();
    const local = join(dir, 'releases');
    const first = built('r1', 1);
    await diskReleaseStore(local).put(first.dir, first.meta);
    await databaseReleaseStore(db, local, { importFolder: true });
    expect(await countRows(db, 'stored_releases')).toBe(1);
    const other = built('r2', 2);
    await diskReleaseStore(local).put(other.dir, other.meta);
    await databaseReleaseStore(db, local, { importFolder: true });
    expect(await countRows(db, 'stored_releases')).toBe(1);
  });

  it('is what a server uses only on Postgres: SQLite keeps files in the folders', async () => {
    const db = await open();
    const store = await openReleaseStore({ releasesDir: join(dir, 'releases'), database: location, db });
    expect(store.fetches).toBe(location.startsWith('postgres'));
  });
});
