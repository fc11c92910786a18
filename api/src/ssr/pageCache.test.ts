import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express, { type Express } from 'express';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DB } from '../db/connection';
import { openTestDatabase } from '../../test/testDatabase';
import { bumpDataVersion, dataVersion } from '../content/dataVersion';
import { createReplyCache, replayableAnswers } from '../http/cachedResponse';
import { allowInlineStyles, securityHeaders } from '../middleware/security';
import { readManifest, writeManifestAtomic } from '../releases/manifestFile';
import { cachedPages, servedReleasesKey } from './pageCache';
import type { ReleaseServing } from '../releases/serving';
import type { PageRenderer } from './renderPage';
import { TOKEN_PERIOD_MS } from '../releases/signalTokens';
import { admitted, createRateLimits } from '../middleware/rateLimit';
import { SHARED_PAGE_CACHE_CONTROL } from '../edge/headers';

const THEME = `document.documentElement.dataset.theme='dark'`;
/** Each page inlines a stylesheet of its own (as the real renderer inlines its remote's CSS). */
const styleOf = (path: string) => `p::after{content:"${path}"}`;

let dir: string;
let releasesDir: string;
let db: DB;
let app: Express;
/** As main.ts serves it: the front lane for stored pages, then Express. */
let site: Server;
/** Requests that reached Express. */
let expressHits: string[];
let renders: string[];

const activate = (directory: string) =>
  writeManifestAtomic(releasesDir, {
    version: 1,
    remotes: { blog: { active: 'b1', history: [] }, directory: { active: directory, history: [] } },
  });

/** A renderer like the real one: the page shows its URL, the releases it used and the data it read. */
function fakeRenderer(): PageRenderer {
  return {
    inlineScripts: [THEME],
    remoteOf: (pathname) => (['/submit', '/contact', '/advertise'].includes(pathname) ? 'forms' : 'directory'),
    renderWith: async () => ({ status: 200, html: '' }),
    async render(req, res) {
      renders.push(`${req.method} ${req.originalUrl}`);
      if (req.method === 'POST') return void res.redirect(303, '/done');
      if (req.path === '/down') return void res.status(503).type('html').send('<p>unavailable</p>');
      if (req.path === '/cookie') res.cookie('seen', '1');
      const releases = Object.entries(readManifest(releasesDir).remotes).map(([name, r]) => `${name}@${r.active}`);
      const html = `<!doctype html><script>${THEME}</script><style>${styleOf(req.path)}</style><p>${req.originalUrl} ${releases.join(' ')} data ${await dataVersion(db)}</p>`;
      res.set(
        'Content-Security-Policy',
        allowInlineStyles(String(res.getHeader('Content-Security-Policy')), [styleOf(req.path)]),
      );
      res
        .status(req.path === '/missing' ? 404 : 200)
        .set('Cache-Control', 'private, no-cache')
        .type('html')
        .send(html);
    },
  };
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'page-cache-'));
  releasesDir = join(dir, 'releases');
  activate('d1');
  db = await openTestDatabase();
  renders = [];
  const renderer = fakeRenderer();
  const pages = cachedPages(renderer, {
    cache: createReplyCache({ version: () => dataVersion(db), maxBytes: 1024 * 1024 }),
    // The releases that serve each remote, here the manifest's active ones (no fallback in these tests).
    releases: () =>
      servedReleasesKey(
        { current: (remote) => ({ release: { id: readManifest(releasesDir).remotes[remote]?.active } }) } as Pick<
          ReleaseServing,
          'current'
        >,
        ['blog', 'directory'],
      ),
    edge: () => ({
      keys: ['data', ...Object.entries(readManifest(releasesDir).remotes).map(([name, r]) => `${name}@${r.active}`)],
      side: 'stable',
    }),
  });
  app = express();
  expressHits = [];
  app.use((req, _res, next) => (expressHits.push(`${req.method} ${req.originalUrl}`), next()));
  app.use(replayableAnswers);
  app.use(securityHeaders({ connectSrc: [], inlineScripts: renderer.inlineScripts }));
  app.get(/.*/, pages);
  app.post(/.*/, pages);
  site = createServer((req, res) => {
    const replayed = pages.replay(req, res);
    if (replayed === false) app(req, res);
    else if (replayed !== true) void replayed.then((sent) => sent || app(req, res));
  });
});
afterEach(async () => {
  site.close();
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('page cache', () => {
  it('serves a page again without rendering it, same HTML, with a CSP that allows its inline script', async () => {
    const a = await request(site).get('/tool/cursor');
    const b = await request(site).get('/tool/cursor');
    expect(renders).toEqual(['GET /tool/cursor']);
    expect(b.status).toBe(200);
    expect(b.text).toBe(a.text);
    expect(b.text).toContain('/tool/cursor blog@b1 directory@d1');
    expect(b.headers['content-type']).toBe('text/html; charset=utf-8');
    // A shared cache may keep it too: browsers revalidate, shared caches keep it briefly, purged by its keys.
    for (const page of [a, b]) {
      expect(page.headers['cache-control']).toBe(SHARED_PAGE_CACHE_CONTROL);
      expect(page.headers['cache-control']).toMatch(
        /^max-age=0, s-maxage=\d+, stale-while-revalidate=\d+, stale-if-error=\d+$/,
      );
      expect(page.headers['cdn-cache-control']).toMatch(
        /^max-age=\d+, stale-while-revalidate=\d+, stale-if-error=\d+$/,
      );
      expect(page.headers['surrogate-key']).toBe('data blog@b1 directory@d1');
      expect(page.headers['release-side']).toBe('stable');
    }
    const csp = b.headers['content-security-policy'] as string;
    expect(csp).toBe(a.headers['content-security-policy']);
    expect(csp).not.toContain('nonce-');
    const inline = /<script>([^<]*)<\/script>/.exec(b.text)![1]!;
    expect(csp).toContain(`'sha256-${createHash('sha256').update(inline).digest('base64')}'`);
    // The stored page keeps its own policy: its inline stylesheet, and no other page's.
    const hashOf = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
    expect(csp).toMatch(
      new RegExp(`style-src-elem 'self' ${hashOf(styleOf('/tool/cursor')).replace(/[+/]/g, '\\$&')};`),
    );
    const other = await request(site).get('/blog');
    expect(other.headers['content-security-policy']).toContain(hashOf(styleOf('/blog')));
    expect(other.headers['content-security-policy']).not.toContain(hashOf(styleOf('/tool/cursor')));
    // Revalidation of a stored page.
    expect((await request(site).get('/tool/cursor').set('If-None-Match', b.headers.etag)).status).toBe(304);
  });

  it('sends a stored page again from the front lane, without Express, with its own policy', async () => {
    const first = await request(site).get('/tool/cursor');
    const again = await request(site).get('/tool/cursor');
    expect(expressHits).toEqual(['GET /tool/cursor']);
    expect(again.text).toBe(first.text);
    expect(again.headers['content-security-policy']).toBe(first.headers['content-security-policy']);
    expect(again.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect((await request(site).get('/tool/cursor').set('If-None-Match', first.headers.etag)).status).toBe(304);
    // A release changes the key: Express renders the page of the new release, which is then replayed in turn.
    activate('d2');
    expect((await request(site).get('/tool/cursor')).text).toContain('directory@d2');
    expect((await request(site).get('/tool/cursor')).text).toContain('directory@d2');
    expect(expressHits).toEqual(['GET /tool/cursor', 'GET /tool/cursor']);
  });

  it('keys by path and query, and keeps 404 pages too', async () => {
    await request(site).get('/?search=a');
    await request(site).get('/?search=b');
    await request(site).get('/?search=a');
    expect((await request(site).get('/missing')).status).toBe(404);
    expect((await request(site).get('/missing')).status).toBe(404);
    expect(renders).toEqual(['GET /?search=a', 'GET /?search=b', 'GET /missing']);
  });

  it('keys on the parameters the page reads alone, sorted, and renders from that address', async () => {
    const a = await request(site).get('/tool/cursor?utm_source=a');
    const b = await request(site).get('/tool/cursor?utm_source=b');
    expect(b.text).toBe(a.text);
    // The first went to Express, the second was replayed from the front lane.
    expect(expressHits).toEqual(['GET /tool/cursor?utm_source=a']);
    expect(renders).toEqual(['GET /tool/cursor']);
    // The page reads ?os=: another value is another page; the order of the parameters does not count.
    await request(site).get('/tool/cursor?os=linux&utm_source=c');
    await request(site).get('/?type=free&search=x&utm_medium=m');
    await request(site).get('/?search=x&type=free');
    expect(renders).toEqual(['GET /tool/cursor', 'GET /tool/cursor?os=linux', 'GET /?search=x&type=free']);
    // A path with no page is the 404 screen, which reads nothing: one render whatever is added; an address with a
    // query off the route table goes to Express (another route may read it), which finds the stored page.
    expect((await request(site).get('/missing?n=1')).status).toBe(404);
    expect((await request(site).get('/missing?n=2')).status).toBe(404);
    expect(renders.slice(3)).toEqual(['GET /missing']);
    expect(expressHits.slice(-2)).toEqual(['GET /missing?n=1', 'GET /missing?n=2']);
  });

  it("limits a visitor's renders per address, never counting a page a cache answered", async () => {
    const limit = createRateLimits({ formsPerMinute: 1, eventsPerMinute: 1, uncachedReadsPerMinute: 2 })[
      'uncached-reads'
    ];
    const limited = cachedPages(fakeRenderer(), {
      cache: createReplyCache({ version: () => dataVersion(db), maxBytes: 1024 * 1024 }),
      releases: () => 'r',
      edge: () => ({ keys: [], side: 'stable' }),
      admit: (req, res) => admitted(limit, req, res),
    });
    const limitedApp = express().set('trust proxy', 1).get(/.*/, limited);
    const from = (address: string, path: string) => request(limitedApp).get(path).set('X-Forwarded-For', address);
    expect((await from('203.0.113.1', '/?search=a')).status).toBe(200);
    // Stored pages, however often: not counted.
    for (let i = 0; i < 5; i++) expect((await from('203.0.113.1', `/?search=a&utm_source=${i}`)).status).toBe(200);
    expect((await from('203.0.113.1', '/?search=b')).status).toBe(200);
    const refused = await from('203.0.113.1', '/?search=c');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.headers['cache-control']).toBe('no-store');
    expect(refused.text).toContain('Too many requests');
    expect(renders).toEqual(['GET /?search=a', 'GET /?search=b']);
    // A stored page is still served to that address, and another address renders as before.
    expect((await from('203.0.113.1', '/?search=b')).status).toBe(200);
    expect((await from('203.0.113.2', '/?search=c')).status).toBe(200);
    expect(renders).toEqual(['GET /?search=a', 'GET /?search=b', 'GET /?search=c']);
  });

  it('renders again after a data change', async () => {
    await request(site).get('/blog');
    await bumpDataVersion(db);
    const after = await request(site).get('/blog');
    expect(renders).toEqual(['GET /blog', 'GET /blog']);
    expect(after.text).toContain(`data ${await dataVersion(db)}`);
  });

  it("renders again once the report tokens' period turns: a stored page's tokens are never older than a period", async () => {
    const start = Math.ceil(Date.now() / TOKEN_PERIOD_MS) * TOKEN_PERIOD_MS + 1000;
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(start);
      await request(site).get('/tool/cursor');
      vi.setSystemTime(start + TOKEN_PERIOD_MS - 2000);
      await request(site).get('/tool/cursor');
      expect(renders).toEqual(['GET /tool/cursor']);
      vi.setSystemTime(start + TOKEN_PERIOD_MS);
      await request(site).get('/tool/cursor');
      await request(site).get('/tool/cursor');
      expect(renders).toEqual(['GET /tool/cursor', 'GET /tool/cursor']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('renders again after a release or a rollback, and only for what changed', async () => {
    await request(site).get('/');
    activate('d2');
    expect((await request(site).get('/')).text).toContain('directory@d2');
    activate('d1');
    // Back to the first release: its page is still the right one.
    expect((await request(site).get('/')).text).toContain('directory@d1');
    expect(renders).toEqual(['GET /', 'GET /']);
  });

  it('never keeps a form post, a form page (a fresh idempotency key each), a 5xx or a page that sets a cookie', async () => {
    for (let i = 0; i < 2; i++) {
      expect((await request(site).post('/submit').type('form').send('name=x')).status).toBe(303);
      const form = await request(site).get('/contact');
      expect(form.status).toBe(200);
      expect((await request(site).get('/down')).status).toBe(503);
      const cookie = await request(site).get('/cookie');
      expect(cookie.headers['set-cookie']).toBeDefined();
      // Nor may a shared cache: these answers keep the renderer's private policy and carry no purge keys.
      for (const answer of [form, cookie]) {
        expect(answer.headers['cache-control']).toBe('private, no-cache');
        expect(answer.headers['surrogate-key']).toBeUndefined();
      }
    }
    expect(renders).toEqual([
      'POST /submit',
      'GET /contact',
      'GET /down',
      'GET /cookie',
      'POST /submit',
      'GET /contact',
      'GET /down',
      'GET /cookie',
    ]);
  });
});
