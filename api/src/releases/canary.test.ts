import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- the parser ships no types; its output is checked below
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { createApp, type SiteApp } from '../app';
import { loadConfig } from '../config';
import type { DB } from '../db/connection';
import { storedReleases } from '../../test/storedReleases';
import { openTestDatabase } from '../../test/testDatabase';
import { createLogger } from '../middleware/logger';
import { createToken } from './tokens';
import { AUTOMATIC_ACTOR, readManifest } from './manifest';
import { fileManifestStore } from './manifestStore';
import { bucketCookie, createCanaries } from './canary';
import { createSignals } from './signals';
import { createRollbackMonitor, judge, watchOf, type RollbackRule } from './autoRollback';
import { activateStored } from './store';
import { runRemoteCommand } from './remoteCli';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

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
const rule: RollbackRule = { minViews: 200, minErrors: 10, ratio: 2, minDiffPoints: 1, windowMs: 30 * 60_000 };

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

  it('takes exactly the report fields, bounded, for a release that exists, within a per-address budget', async () => {
    const send = (body: unknown, type = 'text/plain;charset=UTF-8') =>
      request(app.handler)
        .post('/api/signals')
        .set('Content-Type', type)
        .send(typeof body === 'string' ? body : JSON.stringify(body));
    expect((await send({ ...beacon, url: 'https://x/?q=1' })).status).toBe(400);
    expect((await send({ ...beacon, kind: 'view' })).status).toBe(400);
    expect((await send({ ...beacon, route: '/blog/a?b' })).status).toBe(400);
    expect((await send({ ...beacon, hash: 'not-hex!' })).status).toBe(400);
    expect((await send('not json')).status).toBe(400);
    expect((await send(JSON.stringify({ ...beacon, route: '/' + 'a'.repeat(2000) }))).status).toBe(413);
    expect((await send({ ...beacon, release: 'made-up' })).status).toBe(422);
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await send(beacon, 'application/json')).status);
    expect(answers).toEqual([204, 204, 204, 204, 204, 429]);
    const counts = await app.signals.counts('blog', 'b2', Date.now() - 60_000);
    expect(counts.byKind).toEqual({ unhandled: 5 });
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
      byKind: { view: 7, boundary: 1 },
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
});

describe('the automatic rollback rule', () => {
  const c = (views: number, errors: number) => ({ views, errors, byKind: {} });

  it('never judges on too few samples, and wants a clearly worse rate', () => {
    expect(judge(c(199, 100), c(1000, 0), rule)).toBeNull();
    expect(judge(c(1000, 9), c(1000, 0), rule)).toBeNull();
    expect(judge(c(1000, 30), c(1000, 20), rule)).toBeNull(); // 3% against 2%: not twice
    expect(judge(c(1000, 15), c(1000, 6), rule)).toBeNull(); // 1.5% against 0.6%: under 1 point apart
    expect(judge(c(400, 40), c(400, 4), rule)).toBe(
      'error rate 10.0% (40 errors in 400 views) against 1.0% (4 errors in 400 views) for the stable release (more than 2x and 1 points worse)',
    );
    expect(judge(c(200, 10), c(0, 0), rule)).toMatch(/^error rate 5\.0%/);
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
    await activateStored('blog', 'b3', { releasesDir, manifests, by: 'ops', canary: 20 });
    const signals = createSignals(db, { flushMs: 60_000, retentionMs: 86_400_000, maxKeys: 100 });
    const small: RollbackRule = { ...rule, minViews: 20, minErrors: 5 };
    const monitors = [0, 1].map(() =>
      createRollbackMonitor({
        manifests,
        releasesDir,
        signals,
        rule: small,
        everyMs: 0,
        remotes: ['blog'],
        logger: { error: () => {}, warn: () => {} },
      }),
    );
    signals.count('blog', 'b3', 'view', 19);
    signals.count('blog', 'b3', 'unhandled', 10);
    signals.count('blog', 'b2', 'view', 100); // and the 5 reports of b2 above
    expect(await monitors[0]!.check()).toEqual([]); // 19 views: too few
    signals.count('blog', 'b3', 'view', 1);
    const results = await Promise.all(monitors.map((m) => m.check()));
    expect(results.flat()).toHaveLength(1);
    const state = readManifest(releasesDir).remotes.blog!;
    expect(state.canary).toBeUndefined();
    expect(state.active).toBe('b2');
    expect(state.history.at(-1)).toMatchObject({
      action: 'abort',
      id: 'b3',
      by: AUTOMATIC_ACTOR,
      note: expect.stringMatching(
        /^automatic rollback: canary b3 of blog, error rate 50\.0% \(10 errors in 20 views\) against 5\.0% \(5 errors in 100 views\) for the stable release/,
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
    await activateStored('blog', 'b1', { releasesDir, manifests, by: 'ops' });
    const signals = createSignals(db, { flushMs: 60_000, retentionMs: 86_400_000, maxKeys: 100 });
    const monitor = createRollbackMonitor({
      manifests,
      releasesDir,
      signals,
      rule: { ...rule, minViews: 10, minErrors: 3 },
      everyMs: 0,
      remotes: ['blog'],
      logger: { error: () => {}, warn: () => {} },
    });
    signals.count('blog', 'b1', 'view', 10);
    signals.count('blog', 'b1', 'hydration', 2);
    signals.count('blog', 'b1', 'load-error', 1);
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
    expect(await monitor.check()).toEqual([]); // the rollback itself is not watched
    expect((await post('/api/releases/blog/rollback', { to: 'b1' })).status).toBe(409);
    await signals.close();
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
      value: '5',
    });
    expect(family('release_info')!.metrics).toContainEqual(
      expect.objectContaining({ labels: { remote: 'blog', release: 'b1', role: 'active', percent: '100' } }),
    );
  });
});
