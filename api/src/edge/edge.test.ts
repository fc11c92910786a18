import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp, type SiteApp } from '../app';
import { loadConfig } from '../config';
import type { DB } from '../db/connection';
import { bumpDataVersion } from '../content/dataVersion';
import { createLogger } from '../middleware/logger';
import { createCanaries } from '../releases/canary';
import type { Manifest, RemoteState } from '../releases/manifest';
import { createToken } from '../releases/tokens';
import { countRows, openTestDatabase } from '../../test/testDatabase';
import { storedReleases } from '../../test/storedReleases';
import { NO_STORE, PRIVATE, privateWithCookies, SHARED_PAGE_CACHE_CONTROL } from './headers';
import { createPurger, queuePurge } from './purges';
import { purgeKeysOfChange, purgeKeysSince, queueReleasePurges } from '../releases/releaseChange';
import { activateStored } from '../releases/store';
import { SIDE_PATH, sideOf, sideRoute } from '../releases/side';
import { localStores } from '../releases/openReleaseStore';

const state = (active: string, canary?: { id: string; percent: number }): RemoteState =>
  ({
    active,
    history: [],
    ...(canary ? { canary: { ...canary, since: '2026-01-01T00:00:00.000Z', by: 'test' } } : {}),
  }) as RemoteState;

describe('answers a shared cache must not keep', () => {
  it('makes an answer that sets a cookie private and drops its purge keys, whatever the route said', async () => {
    const app = express()
      .use(privateWithCookies)
      .get('/bucket', (_req, res) => {
        res.set({
          'Cache-Control': SHARED_PAGE_CACHE_CONTROL,
          'Surrogate-Key': 'data',
          'CDN-Cache-Control': 'max-age=60',
        });
        res.cookie('release_bucket', '7').send('page');
      })
      .get('/shared', (_req, res) => void res.set('Cache-Control', SHARED_PAGE_CACHE_CONTROL).send('page'))
      .get('/gone', (_req, res) => void res.set('Cache-Control', NO_STORE).cookie('a', 'b').send('x'));
    const bucket = await request(app).get('/bucket');
    expect(bucket.headers['set-cookie']).toBeDefined();
    expect(bucket.headers['cache-control']).toBe(PRIVATE);
    expect(bucket.headers['surrogate-key']).toBeUndefined();
    expect(bucket.headers['cdn-cache-control']).toBeUndefined();
    expect((await request(app).get('/shared')).headers['cache-control']).toBe(SHARED_PAGE_CACHE_CONTROL);
    expect((await request(app).get('/gone')).headers['cache-control']).toBe(NO_STORE);
  });
});

describe('canary sides', () => {
  let manifest: Manifest;
  const app = () => {
    const canaries = createCanaries(() => manifest);
    return express().get(SIDE_PATH, sideRoute(canaries));
  };
  const side = async (bucket: string) => {
    const res = await request(app()).get(`${SIDE_PATH}?bucket=${bucket}`);
    expect(res.status).toBe(204);
    expect(res.headers['cache-control']).toBe(SHARED_PAGE_CACHE_CONTROL);
    expect(res.headers['surrogate-key']).toBe('sides');
    return res.headers['release-side'];
  };

  it('names the canaries that serve a bucket, and a first page while a canary runs as new', async () => {
    manifest = { version: 1, remotes: { blog: state('b1') } } as Manifest;
    expect(await side('3')).toBe('stable');
    expect(await side('new')).toBe('stable');
    manifest = {
      version: 1,
      remotes: { blog: state('b1', { id: 'b2', percent: 50 }), directory: state('d1', { id: 'd2', percent: 10 }) },
    } as Manifest;
    expect(await side('3')).toBe('blog@b2+directory@d2');
    expect(await side('49')).toBe('blog@b2');
    expect(await side('50')).toBe('stable');
    expect(await side('new')).toBe('new');
  });

  it('refuses a bucket that is not one, with a reason', async () => {
    for (const bad of ['', '100', '-1', 'x']) {
      const res = await request(app()).get(`${SIDE_PATH}?bucket=${bad}`);
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/bucket must be/);
    }
  });

  it('is the same string for the same canaries in any order', () => {
    expect(sideOf({})).toBe('stable');
    expect(sideOf({ directory: 'd2', blog: 'b2' })).toBe(sideOf({ blog: 'b2', directory: 'd2' }));
  });
});

describe('what a release change purges', () => {
  it('the releases that stop serving their side, and the sides when a canary changes', () => {
    // Activation for everyone: the old release's pages.
    expect(purgeKeysOfChange('blog', state('b1'), state('b2'))).toEqual(['blog@b1']);
    // A canary starts: the stable pages stay; the sides change.
    expect(purgeKeysOfChange('blog', state('b1'), state('b1', { id: 'b2', percent: 10 }))).toEqual(['sides']);
    // Its share changes: the sides only.
    expect(
      purgeKeysOfChange('blog', state('b1', { id: 'b2', percent: 10 }), state('b1', { id: 'b2', percent: 50 })),
    ).toEqual(['sides']);
    // Promoted: the stable pages and the canary's.
    expect(purgeKeysOfChange('blog', state('b1', { id: 'b2', percent: 10 }), state('b2'))).toEqual([
      'blog@b1',
      'blog@b2',
      'sides',
    ]);
    // Aborted (or rolled back automatically): the canary's pages.
    expect(purgeKeysOfChange('blog', state('b1', { id: 'b2', percent: 10 }), state('b1'))).toEqual([
      'blog@b2',
      'sides',
    ]);
    // Nothing changed.
    expect(purgeKeysOfChange('blog', state('b1'), state('b1'))).toEqual([]);
  });
});

describe('a release change whose purges were never queued', () => {
  const event = (action: string, id: string, from: string | null) => ({ action, id, from, at: '', by: 'test' });
  const after = (active: string, events: ReturnType<typeof event>[], canary?: { id: string; percent: number }) =>
    ({ ...state(active, canary), history: events }) as unknown as RemoteState;

  it('is purged from the mark: what changed since, and every release that served meanwhile', () => {
    const history = [event('release', 'b1', null), event('release', 'b2', 'b1'), event('release', 'b3', 'b2')];
    // The caches were told about b1 (one event); b2 served for a while (another instance's change, or one whose
    // process stopped), then b3.
    expect(
      purgeKeysSince('blog', { active: 'b1', canary: null, percent: null, events: 1 }, after('b3', history)),
    ).toEqual(['blog@b1', 'blog@b2']);
    // Up to date: nothing.
    expect(
      purgeKeysSince('blog', { active: 'b3', canary: null, percent: null, events: 3 }, after('b3', history)),
    ).toEqual([]);
    // A canary started since: the stable pages stay.
    const canary = after('b3', [...history, event('canary', 'b4', 'b3')], { id: 'b4', percent: 10 });
    expect(purgeKeysSince('blog', { active: 'b3', canary: null, percent: null, events: 3 }, canary)).toEqual(['sides']);
    // No mark yet (a database new to this release store): every release of the history that serves no more.
    expect(purgeKeysSince('blog', undefined, after('b3', history))).toEqual(['blog@b1', 'blog@b2']);
    // A history cut short by hand: the states still differ.
    expect(
      purgeKeysSince('blog', { active: 'b1', canary: null, percent: null, events: 9 }, after('b3', history)),
    ).toEqual(['blog@b1']);
  });

  it('is found and queued at the next start, once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'edge-marks-'));
    const releasesDir = join(dir, 'releases');
    storedReleases(releasesDir, 'blog', ['b1', 'b2']);
    const db = await openTestDatabase();
    const start = async () => {
      const app = await createApp({
        config: loadConfig({ NODE_ENV: 'test', RELEASES_DIR: releasesDir, PREVIEW_SECRET: 'x' }),
        db,
        logger: createLogger('silent'),
        pages: false,
      });
      await app.stop();
    };
    const queued = async () => (await db.selectFrom('edge_purges').select('key').execute()).map((r) => r.key).sort();
    try {
      await activateStored('blog', 'b1', { ...localStores(releasesDir), by: 'test' });
      await start();
      expect(await queued()).toEqual([]);
      // b2 replaces b1, and the process stops before it queues the purge of b1's pages.
      await activateStored('blog', 'b2', { ...localStores(releasesDir), by: 'test' });
      expect(await queued()).toEqual([]);
      await start();
      expect(await queued()).toEqual(['blog@b1']);
      // Queued once: the mark moved with it.
      await db.deleteFrom('edge_purges').execute();
      await start();
      expect(await queued()).toEqual([]);
      await queueReleasePurges(db, 'blog', undefined);
      expect(await countRows(db, 'edge_purges')).toBe(0);
    } finally {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('purges', () => {
  let db: DB;
  let sent: { url: string; keys: string }[];
  let up: boolean;
  const send = async (url: string, keys: string) => {
    if (!up) return false;
    sent.push({ url, keys });
    return true;
  };
  const purger = () => createPurger({ db, urls: ['http://a/', 'http://b/'], logger: createLogger('silent'), send });

  beforeEach(async () => {
    db = await openTestDatabase();
    sent = [];
    up = true;
  });

  it('sends each change to every cache once, of several instances', async () => {
    const [one, two] = [purger(), purger()];
    try {
      await queuePurge(db, ['blog@b1', 'sides']);
      const counts = await Promise.all([one.pass(), two.pass()]);
      expect(counts.sort()).toEqual([0, 2]);
      expect(sent).toEqual([
        { url: 'http://a/', keys: 'blog@b1 sides' },
        { url: 'http://b/', keys: 'blog@b1 sides' },
      ]);
      expect(await countRows(db, 'edge_purges')).toBe(0);
      expect(await one.pass()).toBe(0);
    } finally {
      one.stop();
      two.stop();
    }
  });

  it('queues the data key with every bump of the data version, in its transaction', async () => {
    const p = purger();
    try {
      await db.transaction().execute((trx) => bumpDataVersion(trx));
      await p.pass();
      expect(sent.map((s) => s.keys)).toEqual(['data', 'data']);
    } finally {
      p.stop();
    }
  });

  it('keeps a purge a cache did not take and sends it again after a backoff', async () => {
    const p = purger();
    try {
      await queuePurge(db, ['data']);
      up = false;
      expect(await p.pass()).toBe(0);
      const row = await db.selectFrom('edge_purges').selectAll().executeTakeFirstOrThrow();
      expect(Number(row.attempts)).toBe(1);
      expect(Number(row.next_at)).toBeGreaterThan(Number(row.queued_at));
      up = true;
      // Not before its time ...
      expect(await p.pass()).toBe(0);
      // ... and once it is due.
      await db.updateTable('edge_purges').set({ next_at: 0 }).execute();
      expect(await p.pass()).toBe(1);
      expect(sent.map((s) => s.keys)).toEqual(['data', 'data']);
      expect(await countRows(db, 'edge_purges')).toBe(0);
    } finally {
      p.stop();
    }
  });

  it("sends a release's purge once more when asked, after every instance has seen the change", async () => {
    const p = purger();
    try {
      await queuePurge(db, ['blog@b1'], { againAfterMs: 60_000 });
      expect(await p.pass()).toBe(1);
      expect(await p.pass()).toBe(0);
      expect(await countRows(db, 'edge_purges')).toBe(1);
      await db.updateTable('edge_purges').set({ next_at: 0 }).execute();
      expect(await p.pass()).toBe(1);
      expect(sent.map((s) => s.keys)).toEqual(['blog@b1', 'blog@b1', 'blog@b1', 'blog@b1']);
      expect(await countRows(db, 'edge_purges')).toBe(0);
    } finally {
      p.stop();
    }
  });

  it('sends a key again when it changed while it was being sent', async () => {
    let changeWhileSending = true;
    const p = createPurger({
      db,
      urls: ['http://a/'],
      logger: createLogger('silent'),
      async send(url, keys) {
        sent.push({ url, keys });
        if (changeWhileSending) {
          changeWhileSending = false;
          await queuePurge(db, ['data']);
        }
        return true;
      },
    });
    try {
      await queuePurge(db, ['data']);
      await p.pass();
      await p.pass();
      expect(sent.map((s) => s.keys)).toEqual(['data', 'data']);
      expect(await countRows(db, 'edge_purges')).toBe(0);
    } finally {
      p.stop();
    }
  });
});

describe('the site with a shared cache in front', () => {
  let dir: string;
  let db: DB;
  let app: SiteApp;
  let cache: Server;
  let token: string;
  const purged: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'edge-test-'));
    const releasesDir = join(dir, 'releases');
    storedReleases(releasesDir, 'blog', ['b1', 'b2']);
    // A cache that records the keys it is asked to purge.
    cache = createServer((req, res) => {
      if (req.method === 'PURGE') purged.push(String(req.headers['surrogate-key']));
      res.end();
    });
    await new Promise<void>((resolve) => cache.listen(0, '127.0.0.1', resolve));
    const { port } = cache.address() as { port: number };
    db = await openTestDatabase();
    app = await createApp({
      config: loadConfig({
        NODE_ENV: 'test',
        RELEASES_DIR: releasesDir,
        PREVIEW_SECRET: 'x',
        METRICS_TOKEN: 'metrics-token',
        PURGE_URLS: `http://127.0.0.1:${port}/`,
      }),
      db,
      logger: createLogger('silent'),
      pages: false,
    });
    token = await createToken(db, { label: 'ops', remotes: ['*'] });
  });
  afterAll(async () => {
    await app.stop();
    await db.destroy();
    cache.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('never lets it keep the release API or /metrics', async () => {
    const releases = await request(app.handler).get('/api/releases/blog').set('Authorization', `Bearer ${token}`);
    expect(releases.status).toBe(200);
    expect(releases.headers['cache-control']).toBe(NO_STORE);
    expect((await request(app.handler).get('/api/releases/blog')).headers['cache-control']).toBe(NO_STORE);
    const metrics = await request(app.handler).get('/metrics').set('Authorization', 'Bearer metrics-token');
    expect(metrics.status).toBe(200);
    expect(metrics.headers['cache-control']).toBe('no-store');
  });

  it('never lets it keep the console', async () => {
    const res = await request(app.console).get('/api/dashboard');
    expect(res.headers['cache-control']).toBe('no-store');
    expect((await request(app.console).get('/')).headers['cache-control']).toBe('no-store');
  });

  it('asks it to purge what each release change makes stale', async () => {
    const activate = (body: object) =>
      request(app.handler).post('/api/releases/blog/activate').set('Authorization', `Bearer ${token}`).send(body);
    const purgedAfter = async (change: () => Promise<unknown>) => {
      purged.length = 0;
      await change();
      // The instance that made the change sends its purge at once (the poll would too, later).
      while (!purged.length) await new Promise((r) => setImmediate(r));
      // Its second sending (a release's, later) is not this test's concern.
      await db.deleteFrom('edge_purges').execute();
      return purged.join(' ').split(' ').sort();
    };
    expect((await activate({ id: 'b1' })).status).toBe(200);
    expect(await purgedAfter(() => activate({ id: 'b2' }))).toEqual(['blog@b1']);
    expect(await purgedAfter(() => activate({ id: 'b1', canary: 50 }))).toEqual(['sides']);
    const abort = () =>
      request(app.handler).post('/api/releases/blog/abort').set('Authorization', `Bearer ${token}`).send({});
    expect(await purgedAfter(abort)).toEqual(['blog@b1', 'sides']);
  });
});
