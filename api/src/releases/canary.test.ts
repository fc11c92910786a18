import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- the parser ships no types; its output is checked below
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { createApp, type SiteApp } from '../app';
import { loadConfig, type RollbackRule } from '../config';
import type { DB } from '../db/connection';
import { storedReleases } from '../../test/storedReleases';
import { openTestDatabase } from '../../test/testDatabase';
import { createLogger } from '../middleware/logger';
import { createToken } from './tokens';
import { AUTOMATIC_ACTOR } from './manifest';
import { readReleaseMeta } from './layout';
import { readManifest, fileManifestStore } from './manifestFile';
import { bucketCookie, createCanaries } from './canary';
import { createSignals } from './signals';
import { createRollbackMonitor, judge, watchOf } from './autoRollback';
import { activateStored } from './store';
import { databaseReleaseStore } from './dbReleaseStore';
import { runRemoteCommand } from './remoteCli';
import { listAudit } from '../content/audit';
import { purgeKeysOfChange } from './releaseChange';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { localStores } from './openReleaseStore';

let app: SiteApp;
let db: DB;
let dir: string;
let releasesDir: string;
let ops: string;
const IDS = ['b1', 'b2', 'b3'];
const METRICS_TOKEN = 'metrics-secret-token';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'canary-test-'));
  releasesDir = join(dir, 'releases');
  storedReleases(releasesDir, 'blog', IDS);
  const config = loadConfig({
    NODE_ENV: 'test',
    RELEASES_DIR: releasesDir,
    PREVIEW_SECRET: 'x',
    SIGNALS_RATE_LIMIT: '5',
    SIGNALS_SECRET: 'test-signals-secret',
    // Reports name their source in X-Forwarded-For here, as a proxy on this machine would.
    TRUST_PROXY: 'loopback',
    METRICS_TOKEN,
    SITE_ORIGIN: 'https://site.example',
  });
  db = await openTestDatabase();
  app = await createApp({ config, db, logger: createLogger('silent'), pages: false });
  ops = await createToken(db, { label: 'ops', remotes: ['*'] });
});
afterAll(async () => {
  await app.stop();
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown) =>
  request(app.handler)
    .post(path)
    .set('Authorization', `Bearer ${ops}`)
    .send(body as object);
/** The site's default rule (config.ts), which the tests vary. */
const rule: RollbackRule = loadConfig({}).rollback;
/** A beacon to POST /api/signals from an address, as a proxy on this machine names it. */
const report = (body: unknown, from: string, type = 'text/plain;charset=UTF-8') =>
  request(app.handler)
    .post('/api/signals')
    .set('Content-Type', type)
    .set('X-Forwarded-For', from)
    .send(typeof body === 'string' ? body : JSON.stringify(body));
/** The token a page the server rendered would name for this remote and release. */
const pageToken = (release: string, remote = 'blog', now?: number) =>
  app.signalTokens.issue({ [remote]: release }, now)[remote]!;
const quiet = { error: () => {}, warn: () => {} };
type MonitorOptions = Parameters<typeof createRollbackMonitor>[0];
/** A monitor of the blog in this file's store, run by hand (everyMs 0), quiet unless told otherwise. */
const monitorOf = (opts: Pick<MonitorOptions, 'manifests' | 'signals' | 'rule'> & Partial<MonitorOptions>) =>
  createRollbackMonitor({ releasesDir, everyMs: 0, remotes: ['blog'], logger: quiet, ...opts });

describe('canary over the release API', () => {
  it('starts a canary beside the active release, refuses bad shares and a second canary, aborts and promotes', async () => {
    expect((await post('/api/releases/blog/activate', { id: 'b1', canary: 10 })).body.error).toMatch(
      /no active release/,
    );
    expect((await post('/api/releases/blog/activate', { id: 'b1' })).status).toBe(200);
    for (const canary of [0, 100, 12.5, '50'])
      expect((await post('/api/releases/blog/activate', { id: 'b2', canary })).status).toBe(400);
    const extra = await post('/api/releases/blog/activate', { id: 'b2', canary: 10, share: 1 });
    expect(extra.status).toBe(400);
    expect(extra.body.fieldErrors).toHaveProperty('share');

    const started = await post('/api/releases/blog/activate', { id: 'b2', canary: 30 });
    expect(started.body).toMatchObject({ success: true, active: 'b1', canary: { id: 'b2', percent: 30 } });
    expect(readManifest(releasesDir).remotes.blog).toMatchObject({
      active: 'b1',
      canary: { id: 'b2', percent: 30, by: 'ops' },
    });
    expect((await post('/api/releases/blog/activate', { id: 'b3', canary: 5 })).status).toBe(409);
    const listed = await request(app.handler).get('/api/releases/blog').set('Authorization', `Bearer ${ops}`);
    expect(listed.body.data).toMatchObject({
      active: 'b1',
      canary: { id: 'b2', percent: 30 },
      health: { kind: 'canary', fresh: 'b2', stable: 'b1' },
    });

    expect((await post('/api/releases/blog/abort', {})).body).toMatchObject({ active: 'b1', aborted: 'b2' });
    expect(readManifest(releasesDir).remotes.blog?.canary).toBeUndefined();
    expect((await post('/api/releases/blog/abort', {})).status).toBe(409);
    await post('/api/releases/blog/activate', { id: 'b2', canary: 50 });
    expect((await post('/api/releases/blog/promote', {})).body).toMatchObject({ active: 'b2', from: 'b1' });
    const state = readManifest(releasesDir).remotes.blog!;
    expect(state).toMatchObject({ active: 'b2' });
    expect(state.canary).toBeUndefined();
    expect(state.history.map((e) => e.action)).toEqual(['release', 'canary', 'abort', 'canary', 'promote']);
  });

  it('refuses to activate or roll back while a canary runs (409), and keeps the canary', async () => {
    await post('/api/releases/blog/activate', { id: 'b3', canary: 10 });
    const before = readManifest(releasesDir).remotes.blog;
    for (const [path, body] of [
      ['rollback', {}],
      ['rollback', { to: 'b1' }],
      ['activate', { id: 'b1' }],
    ] as const) {
      const res = await post(`/api/releases/blog/${path}`, body);
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('blog runs b3 as a canary (10%): promote or abort it first.');
    }
    expect(readManifest(releasesDir).remotes.blog).toEqual(before);
    expect((await post('/api/releases/blog/abort', {})).body).toMatchObject({ active: 'b2', aborted: 'b3' });
  });
});

describe('visitor buckets', () => {
  const manifest = {
    version: 1 as const,
    remotes: {
      blog: { active: 'b1', canary: { id: 'b2', percent: 30, since: new Date().toISOString(), by: 't' }, history: [] },
    },
  };
  const canaries = createCanaries(() => manifest);
  const req = (headers: Record<string, string>) => ({ headers });

  it('serves the canary to buckets below its share, the stable release to the rest and to crawlers', () => {
    expect(canaries.pins(req({ cookie: 'release_bucket=29' }))).toEqual({ blog: 'b2' });
    expect(canaries.pins(req({ cookie: 'a=1; release_bucket=30' }))).toEqual({});
    expect(
      canaries.pins(req({ cookie: 'release_bucket=3', 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' })),
    ).toEqual({});
    expect(canaries.pins(req({}))).toEqual({});
    const navigation = { 'sec-fetch-dest': 'document' };
    expect(canaries.needsBucket(req({ ...navigation, 'user-agent': 'Mozilla/5.0' }))).toBe(true);
    expect(canaries.needsBucket(req({ 'user-agent': 'curl/8.5.0' }))).toBe(false); // no cookies kept: the stable, cached pages
    expect(canaries.needsBucket(req({ ...navigation, 'user-agent': 'bingbot' }))).toBe(false);
    expect(canaries.needsBucket(req({ ...navigation, cookie: 'release_bucket=5' }))).toBe(false);
  });

  it('assigns a bucket once, as a first-party cookie holding only the number, and uses it for that request', () => {
    const first = req({ 'sec-fetch-dest': 'document' });
    const cookie = canaries.assign(first, true);
    expect(cookie).toMatch(/^release_bucket=\d{1,2}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax; Secure$/);
    const bucket = bucketCookie({ headers: { cookie: cookie.split(';')[0]! } })!;
    expect(canaries.needsBucket(first)).toBe(false);
    expect(canaries.pins(first)).toEqual(bucket < 30 ? { blog: 'b2' } : {});
    const shares = Array.from({ length: 2000 }, () =>
      bucketCookie({ headers: { cookie: canaries.assign(req({}), false).split(';')[0]! } })!,
    );
    const canary = shares.filter((b) => b < 30).length / shares.length;
    expect(canary).toBeGreaterThan(0.25);
    expect(canary).toBeLessThan(0.35);
  });
});

describe('signals from visitors', () => {
  const beacon = { remote: 'blog', release: 'b2', kind: 'unhandled', route: '/blog/:slug', hash: '0a1b2c3d' };

  it('takes exactly the report fields, bounded, for a release that exists, a few per token, within a per-address budget', async () => {
    const token = pageToken('b2');
    const from = '203.0.113.1';
    expect((await report({ ...beacon, token, url: 'https://x/?q=1' }, from)).status).toBe(400);
    expect((await report({ ...beacon, token, kind: 'view' }, from)).status).toBe(400);
    expect((await report({ ...beacon, token, route: '/blog/a?b' }, from)).status).toBe(400);
    expect((await report({ ...beacon, token, hash: 'not-hex!' }, from)).status).toBe(400);
    expect((await report('not json', from)).status).toBe(400);
    expect((await report(JSON.stringify({ ...beacon, token, route: '/' + 'a'.repeat(2000) }), from)).status).toBe(413);
    expect((await report({ ...beacon, token, release: 'made-up' }, '203.0.113.9')).status).toBe(422);
    // One page's token counts three reports from an address, and so does the release (a new page's token adds
    // none); the address has five a minute.
    const second = pageToken('b2');
    const answers = [];
    for (const t of [token, token, token, token, second, second]) {
      const res = await report({ ...beacon, token: t }, from, 'application/json');
      answers.push(res.status === 204 ? 204 : (res.body.fieldErrors?.token ?? res.status));
    }
    expect(answers).toEqual([204, 204, 204, 'spent', 'capped', 429]);
    // Another visitor of the same (stored) page has its own few.
    expect((await report({ ...beacon, token }, '203.0.113.2')).status).toBe(204);
    const counts = await app.signals.counts('blog', 'b2', Date.now() - 60_000);
    expect(counts.byKind).toEqual({ unhandled: 4 });
    expect(counts.refused).toEqual({ spent: 1, capped: 1, 'rate-limited': 1 });
    expect(counts.sources).toEqual({ visitors: 2, networks: 1 });
  });

  it("counts a report of a release stored in the database that this instance's copy does not hold", async () => {
    // Another instance's release: rows in the database, no folder here (its pages were served there).
    const hereDir = join(dir, 'instance-here');
    const files = await databaseReleaseStore(db, hereDir);
    const meta = readReleaseMeta(releasesDir, 'blog', 'b1')!;
    const elsewhere = join(dir, 'elsewhere');
    storedReleases(elsewhere, 'blog', ['b9']);
    await files.put(join(elsewhere, 'blog', 'b9'), { ...meta, id: 'b9' });
    rmSync(join(hereDir, 'blog'), { recursive: true });
    const config = loadConfig({ NODE_ENV: 'test', RELEASES_DIR: hereDir, SIGNALS_SECRET: 'test-signals-secret' });
    const here = await createApp({ config, db, logger: createLogger('silent'), pages: false, files });
    try {
      const token = here.signalTokens.issue({ blog: 'b9' }).blog!;
      const sent = await request(here.handler)
        .post('/api/signals')
        .set('Content-Type', 'text/plain')
        .send(JSON.stringify({ ...beacon, release: 'b9', token }));
      expect(sent.status).toBe(204);
      const missing = await request(here.handler)
        .post('/api/signals')
        .set('Content-Type', 'text/plain')
        .send(JSON.stringify({ ...beacon, release: 'b8', token: here.signalTokens.issue({ blog: 'b8' }).blog }));
      expect(missing.status).toBe(422);
    } finally {
      await here.stop();
    }
  });

  it('refuses a report without a valid token for its remote and release (none, another release, expired, tampered), and does not count it', async () => {
    const b3 = { ...beacon, release: 'b3' };
    const valid = pageToken('b3');
    const [at, nonce, mac] = valid.split('.') as [string, string, string];
    const forged = [
      { ...b3 },
      { ...b3, token: pageToken('b2') },
      { ...b3, token: app.signalTokens.issue({ legal: 'b3' }).legal },
      { ...b3, token: pageToken('b3', 'blog', Date.now() - 3 * 60 * 60_000) },
      { ...b3, token: `${at}.${nonce}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}` },
      { ...b3, token: `${(Number.parseInt(at, 36) + 60).toString(36)}.${nonce}.${mac}` },
    ];
    const answers = [];
    for (const [i, body] of forged.entries()) {
      const res = await report(body, `198.51.100.${i + 1}`);
      answers.push([res.status, res.body.fieldErrors?.token]);
    }
    expect(answers).toEqual([
      [403, 'missing'],
      [403, 'invalid'],
      [403, 'invalid'],
      [403, 'expired'],
      [403, 'invalid'],
      [403, 'invalid'],
    ]);
    const counts = await app.signals.counts('blog', 'b3', Date.now() - 60_000);
    expect(counts).toMatchObject({ errors: 0, sources: { visitors: 0, networks: 0 } });
    expect(counts.refused).toEqual({ missing: 1, invalid: 4, expired: 1 });
  });

  it('adds counts of several writers into one row per minute, caps the keys held, and drops old rows', async () => {
    const a = createSignals(db, { flushMs: 60_000, retentionMs: 86_400_000, maxKeys: 2 });
    const b = createSignals(db, { flushMs: 60_000, retentionMs: 86_400_000, maxKeys: 2 });
    a.count('legal', 'l1', 'view', 3);
    a.count('legal', 'l1', 'boundary');
    a.count('legal', 'l1', 'hydration'); // a third key: over the cap
    b.count('legal', 'l1', 'view', 4);
    await Promise.all([a.flush(), b.flush()]);
    expect(a.dropped()).toBe(1);
    expect(await a.counts('legal', 'l1', Date.now() - 60_000)).toEqual({
      views: 7,
      errors: 1,
      serverErrors: 0,
      byKind: { view: 7, boundary: 1 },
      sources: { visitors: 0, networks: 0 },
      refused: {},
    });
    const rows = await db.selectFrom('release_signals').selectAll().where('remote', '=', 'legal').execute();
    expect(rows).toHaveLength(2);
    await db
      .insertInto('release_signals')
      .values({
        remote: 'legal',
        release_id: 'l0',
        kind: 'view',
        minute: Math.floor(Date.now() / 60_000) - 3 * 24 * 60,
        count: 9,
      })
      .execute();
    a.count('legal', 'l1', 'view');
    await a.flush();
    expect(await db.selectFrom('release_signals').selectAll().where('release_id', '=', 'l0').execute()).toEqual([]);
    await Promise.all([a.close(), b.close()]);
  });

  it('counts distinct sources across instances: one visitor seen by two is one', async () => {
    const a = createSignals(db, { flushMs: 60_000, retentionMs: 86_400_000, maxKeys: 10 });
    const b = createSignals(db, { flushMs: 60_000, retentionMs: 86_400_000, maxKeys: 10 });
    const src = (ip: string) => app.signalTokens.source(ip);
    a.source('legal', 'l2', src('203.0.113.5'));
    b.source('legal', 'l2', src('203.0.113.5'));
    b.source('legal', 'l2', src('203.0.113.6'));
    a.source('legal', 'l2', src('2001:db8:5::1'));
    await Promise.all([a.flush(), b.flush()]);
    expect((await b.counts('legal', 'l2', Date.now() - 60_000)).sources).toEqual({ visitors: 3, networks: 2 });
    const rows = await db.selectFrom('release_signal_sources').selectAll().where('release_id', '=', 'l2').execute();
    expect(rows).toHaveLength(3);
    expect(JSON.stringify(rows)).not.toMatch(/203\.0\.113|2001:db8/);
    await Promise.all([a.close(), b.close()]);
  });
});

describe('the automatic rollback rule', () => {
  const c = (views: number, errors: number, more: { server?: number; visitors?: number; networks?: number } = {}) => ({
    views,
    errors,
    serverErrors: more.server ?? 0,
    byKind: {},
    sources: { visitors: more.visitors ?? 10, networks: more.networks ?? 5 },
    refused: {},
  });

  it('never judges on too few samples, and wants a clearly worse rate', () => {
    expect(judge(c(199, 100), c(1000, 0), rule)).toEqual({
      rollBack: false,
      reason: 'too few page views to judge (199 of 200)',
    });
    expect(judge(c(1000, 9), c(1000, 0), rule)).toEqual({
      rollBack: false,
      reason: 'too few errors to judge (9 of 10)',
    });
    expect(judge(c(1000, 30), c(1000, 20), rule)).toMatchObject({ rollBack: false }); // 3% against 2%: not twice
    expect(judge(c(1000, 15), c(1000, 6), rule)).toMatchObject({ rollBack: false }); // 1.5% against 0.6%: under 1 point apart
    expect(judge(c(1000, 30), c(1000, 20), rule).reason).toBe(
      'error rate 3.0% (30 errors in 1000 views) against 2.0% (20 errors in 1000 views) for the stable release: not clearly worse',
    );
    expect(judge(c(400, 40), c(400, 4), rule)).toEqual({
      rollBack: true,
      reason:
        'error rate 10.0% (40 errors in 400 views) against 1.0% (4 errors in 400 views) for the stable release (more than 2x and 1 points worse), reported by 10 distinct visitors from 5 networks',
    });
    expect(judge(c(200, 10), c(0, 0), rule).reason).toMatch(/^error rate 5\.0%/);
  });

  it("counts visitors' reports only from enough distinct visitors and networks; the server's own errors always", () => {
    // Many reports from one visitor, or from too few networks: not counted.
    expect(judge(c(400, 400, { visitors: 1, networks: 1 }), c(400, 0), rule)).toEqual({
      rollBack: false,
      reason:
        "too few errors to judge (0 of 10); visitors' reports not counted (1 distinct visitors from 1 networks, fewer than 10 visitors from 5 networks)",
    });
    expect(judge(c(400, 40, { visitors: 30, networks: 4 }), c(400, 0), rule).rollBack).toBe(false);
    expect(judge(c(400, 40, { visitors: 9, networks: 9 }), c(400, 0), rule).rollBack).toBe(false);
    // The server's render failures are judged alone, on their own rate.
    expect(judge(c(400, 60, { server: 20, visitors: 1, networks: 1 }), c(400, 0), rule)).toEqual({
      rollBack: true,
      reason: expect.stringMatching(
        /^error rate 5\.0% \(20 errors in 400 views\) against 0\.0% .* from the server's own errors; visitors' reports not counted \(1 distinct visitors/,
      ),
    });
  });

  it('watches a canary, and a release activated for everyone for the window only', () => {
    const at = new Date().toISOString();
    const ev = (action: 'release' | 'promote', by = 'ops', when = at) => ({
      action,
      id: 'b2',
      from: 'b1',
      at: when,
      by,
    });
    expect(
      watchOf('blog', { active: 'b1', canary: { id: 'b2', percent: 10, since: at, by: 'ops' }, history: [] }, rule),
    ).toMatchObject({ kind: 'canary', fresh: 'b2', stable: 'b1' });
    expect(watchOf('blog', { active: 'b2', history: [ev('release')] }, rule)).toMatchObject({
      kind: 'activation',
      fresh: 'b2',
      stable: 'b1',
    });
    expect(watchOf('blog', { active: 'b2', history: [ev('promote')] }, rule)).toMatchObject({ kind: 'activation' });
    expect(
      watchOf(
        'blog',
        { active: 'b2', history: [ev('release', 'ops', new Date(Date.now() - 31 * 60_000).toISOString())] },
        rule,
      ),
    ).toBeNull();
    expect(watchOf('blog', { active: 'b2', history: [ev('release', AUTOMATIC_ACTOR)] }, rule)).toBeNull();
  });

  it('aborts a clearly worse canary once (of two instances, one writes), says why, and keeps it out until a person forces it', async () => {
    const manifests = fileManifestStore(releasesDir);
    await activateStored('blog', 'b3', { ...localStores(releasesDir), manifests, by: 'ops', canary: 20 });
    // The stable release's reports are this test's own: the ones of the tests above count only when they fall in the
    // canary's first minute or later (counts are kept by the minute), so a minute's turn in between changed them.
    await app.signals.flush();
    await db.deleteFrom('release_signals').where('release_id', '=', 'b2').execute();
    const signals = createSignals(db, { flushMs: 60_000, retentionMs: 86_400_000, maxKeys: 100 });
    const small: RollbackRule = { ...rule, minViews: 20, minErrors: 5 };
    // What each instance asks the shared caches to purge (releases/releaseChange.ts).
    const purges: string[][] = [];
    const monitors = [0, 1].map(() =>
      monitorOf({
        manifests,
        signals,
        rule: small,
        rolledBack: async (remote, before, after) => void purges.push(purgeKeysOfChange(remote, before, after)),
      }),
    );
    signals.count('blog', 'b3', 'view', 19);
    signals.count('blog', 'b3', 'unhandled', 10);
    for (let i = 0; i < 10; i++) signals.source('blog', 'b3', app.signalTokens.source(`192.0.${i % 5}.${i + 1}`));
    signals.count('blog', 'b2', 'view', 100);
    signals.count('blog', 'b2', 'unhandled', 5);
    expect(await monitors[0]!.check()).toEqual([]); // 19 views: too few
    signals.count('blog', 'b3', 'view', 1);
    const results = await Promise.all(monitors.map((m) => m.check()));
    expect(results.flat()).toHaveLength(1);
    // The canary's pages and the sides, once.
    expect(purges).toEqual([['blog@b3', 'sides']]);
    const state = readManifest(releasesDir).remotes.blog!;
    expect(state.canary).toBeUndefined();
    expect(state.active).toBe('b2');
    expect(state.history.at(-1)).toMatchObject({
      action: 'abort',
      id: 'b3',
      by: AUTOMATIC_ACTOR,
      note: expect.stringMatching(
        /^automatic rollback: canary b3 of blog, error rate 50\.0% \(10 errors in 20 views\) against 5\.0% \(5 errors in 100 views\) for the stable release .*, reported by 10 distinct visitors from 5 networks$/,
      ),
    });

    const again = await post('/api/releases/blog/activate', { id: 'b3', canary: 20 });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/rolled back automatically .*force/);
    expect((await post('/api/releases/blog/activate', { id: 'b3' })).status).toBe(409);
    expect((await post('/api/releases/blog/activate', { id: 'b3', canary: 20, force: true })).body).toMatchObject({
      canary: { id: 'b3' },
    });
    await post('/api/releases/blog/abort', {});
    await signals.close();
  });
});

describe('the automatic rollback after a full activation', () => {
  it('rolls a clearly worse new release back to the one before, within its window, once', async () => {
    const manifests = fileManifestStore(releasesDir);
    const before = readManifest(releasesDir).remotes.blog!.active;
    await activateStored('blog', 'b1', { ...localStores(releasesDir), manifests, by: 'ops' });
    const signals = createSignals(db, { flushMs: 60_000, retentionMs: 86_400_000, maxKeys: 100 });
    const purges: string[][] = [];
    const monitor = monitorOf({
      manifests,
      signals,
      rule: { ...rule, minViews: 10, minErrors: 3 },
      rolledBack: async (remote, before, after) => void purges.push(purgeKeysOfChange(remote, before, after)),
    });
    // The server's own failures: trusted as they are, with no visitor behind them.
    signals.count('blog', 'b1', 'view', 10);
    signals.count('blog', 'b1', 'render-failure', 2);
    signals.count('blog', 'b1', 'breaker-open', 1);
    const done = await monitor.check();
    expect(done).toEqual([
      {
        remote: 'blog',
        release: 'b1',
        note: expect.stringMatching(
          /^automatic rollback: release b1 of blog, error rate 30\.0% \(3 errors in 10 views\)/,
        ),
      },
    ]);
    const state = readManifest(releasesDir).remotes.blog!;
    expect(state.active).toBe(before);
    expect(state.history.at(-1)).toMatchObject({ action: 'rollback', id: before, from: 'b1', by: AUTOMATIC_ACTOR });
    expect(purges).toEqual([['blog@b1']]);
    expect(await monitor.check()).toEqual([]); // the rollback itself is not watched
    expect((await post('/api/releases/blog/rollback', { to: 'b1' })).status).toBe(409);
    await signals.close();
  });
});

describe('reports from one address', () => {
  it('from one address, valid reports do not roll back a healthy canary; the same from ten visitors in five networks do', async () => {
    storedReleases(releasesDir, 'blog', ['b4']);
    const manifests = fileManifestStore(releasesDir);
    const stable = readManifest(releasesDir).remotes.blog!.active;
    await activateStored('blog', 'b4', { ...localStores(releasesDir), manifests, by: 'ops', canary: 50 });
    const monitor = monitorOf({
      manifests,
      signals: app.signals,
      rule: { ...rule, minViews: 100, minErrors: 4 },
    });
    app.signals.count('blog', 'b4', 'view', 300);
    app.signals.count('blog', stable, 'view', 3000);
    const beacon = { remote: 'blog', release: 'b4', kind: 'unhandled', route: '/blog', hash: '0a1b2c3d' };
    // A fresh page (token) for every report, as many as the address may send: each is counted ...
    const one = [];
    for (let i = 0; i < 6; i++) one.push((await report({ ...beacon, token: pageToken('b4') }, '192.0.2.10')).status);
    expect(one).toEqual([204, 204, 204, 429, 429, 429]); // three counted for the release, then five a minute
    expect(await monitor.check()).toEqual([]);
    // ... and judged: enough views and errors, a far worse rate, but one visitor in one network.
    const seen = (await monitor.report('blog'))!;
    expect(seen.freshCounts).toMatchObject({ views: 300, errors: 3, sources: { visitors: 1, networks: 1 } });
    expect(seen.lastCheck).toMatchObject({
      fresh: 'b4',
      rollBack: false,
      reason: expect.stringContaining("visitors' reports not counted (1 distinct visitors from 1 networks"),
    });
    expect(readManifest(releasesDir).remotes.blog!.canary?.id).toBe('b4');

    for (let i = 0; i < 10; i++)
      expect((await report({ ...beacon, token: pageToken('b4') }, `198.51.${100 + (i % 5)}.${i + 1}`)).status).toBe(
        204,
      );
    expect(await monitor.check()).toHaveLength(1);
    const state = readManifest(releasesDir).remotes.blog!;
    expect(state.canary).toBeUndefined();
    expect(state.history.at(-1)).toMatchObject({
      action: 'abort',
      id: 'b4',
      by: AUTOMATIC_ACTOR,
      note: expect.stringMatching(
        /error rate 4\.3% \(13 errors in 300 views\).*, reported by 11 distinct visitors from 6 networks$/,
      ),
    });
    monitor.stop();
  });
});

describe('the commands against a running site (--site)', () => {
  let server: Server;
  let site: string;
  beforeAll(async () => {
    server = createServer(app.handler).listen(0);
    await new Promise((r) => server.once('listening', r));
    site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it('lists the canary, the error rates watched and the automatic rollbacks, and promotes and aborts', async () => {
    const lines: string[] = [];
    const run = (command: 'list' | 'promote' | 'abort') =>
      runRemoteCommand({ command, remote: 'blog', site, token: ops, activate: true }, (l) => lines.push(l));
    await post('/api/releases/blog/activate', { id: 'b1', canary: 25, force: true });
    await run('list');
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}canary: b1 serves 25% of visitors since .* \(by ops\)$/));
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^ {2}watching canary b1 since .*: error rate \d+\.\d% \(\d+ errors \/ \d+ views\); stable b2: /,
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {2}! .* automatic rollback: canary b3 of blog, error rate 50\.0%/),
    );
    await run('abort');
    expect(lines.at(-1)).toBe('blog: canary b1 ended; everyone gets b2');
    await post('/api/releases/blog/activate', { id: 'b1', canary: 25, force: true });
    await run('promote');
    expect(lines.at(-1)).toBe('blog: canary b1 promoted, active for everyone (was b2)');
    await expect(run('promote')).rejects.toThrow(/Promotion refused \(409\): blog runs no canary to promote/);
  });
});

describe('GET /metrics', () => {
  it('answers only with the metrics token, in the Prometheus text format, with every family', async () => {
    expect((await request(app.handler).get('/metrics')).status).toBe(401);
    expect((await request(app.handler).get('/metrics').set('Authorization', 'Bearer wrong')).status).toBe(401);
    const scrape = async () => {
      const res = await request(app.handler).get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      const families = parsePrometheusTextFormat(res.text) as {
        name: string;
        type: string;
        metrics: { labels?: Record<string, string>; value?: string }[];
      }[];
      return (name: string) => families.find((f) => f.name === name);
    };
    const toolReads = (family: Awaited<ReturnType<typeof scrape>>) =>
      Number(
        family('http_requests_total')?.metrics.find(
          (m) => m.labels?.route === '/api/tools' && m.labels.status === '200',
        )?.value ?? 0,
      );
    const before = toolReads(await scrape());
    // The first answer is Express's; the second is the front lane's (sent again without Express): both are counted.
    await request(app.handler).get('/api/tools?limit=1');
    await request(app.handler).get('/api/tools?limit=1');
    const family = await scrape();
    expect(toolReads(family)).toBe(before + 2);
    for (const name of [
      'http_requests_total',
      'ssr_render_seconds',
      'cache_lookups_total',
      'ssr_breaker_open',
      'release_visitor_errors_total',
      'release_page_views_total',
      'release_reports_refused_total',
      'release_error_sources',
      'release_info',
      'process_cpu_seconds_total',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(family(name), name).toBeDefined();
    }
    expect(family('ssr_render_seconds')!.type).toBe('HISTOGRAM');
    expect(family('http_requests_total')!.metrics).toContainEqual(
      expect.objectContaining({ labels: { route: '/api/tools', status: '200' } }),
    );
    expect(family('cache_lookups_total')!.metrics).toContainEqual(
      expect.objectContaining({ labels: { cache: 'reads', result: 'hit' } }),
    );
    expect(family('release_visitor_errors_total')!.metrics).toContainEqual({
      labels: { remote: 'blog', release: 'b2', kind: 'unhandled' },
      value: '4',
    });
    expect(family('release_reports_refused_total')!.metrics).toContainEqual({
      labels: { remote: 'blog', release: 'b3', reason: 'invalid' },
      value: '4',
    });
    // The watched releases (b1, promoted last, against b2), with the distinct sources behind their reports.
    expect(family('release_error_sources')!.metrics).toContainEqual({
      labels: { remote: 'blog', release: 'b2', source: 'visitors' },
      value: expect.stringMatching(/^\d+$/),
    });
    expect(family('release_info')!.metrics).toContainEqual(
      expect.objectContaining({ labels: { remote: 'blog', release: 'b1', role: 'active', percent: '100' } }),
    );
  });
});

describe('the audit trail of automatic rollbacks', () => {
  it('has a row for each, by "automatic", naming the release and the verdict', async () => {
    storedReleases(releasesDir, 'blog', ['b7']);
    const manifests = fileManifestStore(releasesDir);
    const stable = readManifest(releasesDir).remotes.blog!.active;
    await activateStored('blog', 'b7', { ...localStores(releasesDir), manifests, by: 'ops', canary: 20 });
    const signals = createSignals(db, { flushMs: 60_000, retentionMs: 86_400_000, maxKeys: 100 });
    const monitor = monitorOf({
      manifests,
      signals,
      rule: { ...rule, minViews: 10, minErrors: 3 },
      db,
    });
    signals.count('blog', 'b7', 'view', 10);
    signals.count('blog', 'b7', 'render-failure', 3);
    signals.count('blog', stable, 'view', 1000); // earlier tests' errors of it are in this minute too
    expect(await monitor.check()).toHaveLength(1);
    const { entries } = await listAudit(db, { actor: AUTOMATIC_ACTOR });
    expect(entries).toEqual([
      expect.objectContaining({
        actor: AUTOMATIC_ACTOR,
        action: 'release.abort',
        target: 'blog',
        summary: expect.stringMatching(
          new RegExp(`^canary b7 ended; active ${stable}; reason: error rate 30\\.0% \\(3 errors in 10 views\\)`),
        ),
        outcome: 'ok',
      }),
    ]);
    await signals.close();
  });
});
