import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express, { type Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { loadConfig } from '../config';
import { openTestDatabase } from '../../test/testDatabase';
import { writeManifestAtomic } from '../releases/manifestFile';
import { errorHandler, errorStatus, HttpError, publicErrorMessage } from './errors';
import { createLogger } from './logger';

let app: Express;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'errors-test-'));
  const releasesDir = join(dir, 'releases');
  mkdirSync(join(releasesDir, 'legal', '1.0.0-r1', 'client'), { recursive: true });
  writeFileSync(join(releasesDir, 'legal', '1.0.0-r1', 'client', 'remoteEntry.js'), 'export {}');
  writeManifestAtomic(releasesDir, { version: 1, remotes: { legal: { active: '1.0.0-r1', history: [] } } });
  app = await createApp({
    config: loadConfig({ NODE_ENV: 'test', RELEASES_DIR: releasesDir }),
    db: await openTestDatabase(),
    logger: createLogger('silent'),
    pages: false,
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Nothing of the server's disk and nothing of what the client sent. */
function expectClean(body: string, ...echoes: string[]) {
  expect(body).not.toMatch(/ENOENT|stat |\/tmp|\/work|errors-test|node_modules/);
  for (const e of echoes) expect(body).not.toContain(e);
}

describe('error bodies', () => {
  it('refuses an address holding a NUL with 400 before any query sees it (Postgres text cannot hold one)', async () => {
    for (const path of [
      '/api/tools/%00',
      '/api/tools?search=%00',
      '/api/tools/query?search=a%00',
      '/v0.1/servers?search=a%00',
      '/v0.1/servers/a%00/versions/latest',
    ]) {
      const res = await request(app).get(path);
      expect(res.status, path).toBe(400);
      // The registry's answers keep its own format, { error } (docs/mcp.md).
      const error = 'The address holds a NUL character';
      expect(res.body, path).toEqual(path.startsWith('/v0.1') ? { error } : { success: false, error });
    }
    expect((await request(app).get('/api/tools?search=%01')).status).toBe(200);
  });

  it('answers an API path asked with a method it does not take with 405 naming those it takes, not 404', async () => {
    const cases: [string, string, string][] = [
      ['delete', '/api/tools/chatgpt', 'GET, HEAD'],
      ['post', '/api/tools/query', 'GET, HEAD'],
      ['put', '/api/blog/public/posts', 'GET, HEAD'],
      ['get', '/api/submissions', 'POST'],
      ['patch', '/api/contact/submit', 'POST'],
      ['get', '/api/events', 'POST'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await request(app)[method as 'get'](path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.allow, path).toBe(allow);
      expect(res.body, path).toEqual({ success: false, error: 'Method not allowed' });
    }
    const options = await request(app).options('/api/submissions');
    expect([options.status, options.headers.allow]).toEqual([204, 'POST']);
    expect((await request(app).delete('/api/no-such-path')).status).toBe(404);
  });

  it('a missing release file answers 404 without its path', async () => {
    const res = await request(app).get('/remotes/legal/1.0.0-r1/assets/missing-chunk.js');
    expect(res.status).toBe(404);
    expectClean(res.text, 'missing-chunk');
  });

  it('a static file error under express.static(fallthrough: false) says only "Not found"', async () => {
    const mini = express();
    mini.use('/assets', express.static(dir, { fallthrough: false }));
    mini.use(errorHandler);
    const res = await request(mini).get('/assets/nope/x.js');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: 'Not found' });
  });

  it.each(['/api/tools/%E0%A4%A', '/api/tools/%ZZ%3Cscript%3E', '/remotes/legal/%C0%AF/x.js'])(
    'an undecodable URI (%s) answers 400 without echoing it',
    async (path) => {
      const res = await request(app).get(path);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: 'Bad request' });
    },
  );

  it('/api keeps answering JSON, also for unknown paths and bodies in an unknown charset', async () => {
    const unknown = await request(app).get('/api/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.type).toBe('application/json');
    const charset = await request(app)
      .post('/api/submissions')
      .set('Content-Type', 'application/json; charset=evil-<b>')
      .send('{}');
    expect(charset.status).toBe(415);
    expect(charset.body).toEqual({ success: false, error: 'Unsupported content type' });
  });

  it.each([
    ['/tool/%E0%A4%A', 400, 'Bad request'],
    ['/blog/%ZZ%3Cscript%3E', 400, 'Bad request'],
  ])(
    'a browser asking for a page (%s) gets an HTML error page, with nothing of the request',
    async (path, status, words) => {
      // A page route whose parameter does not decode (as the page renderer's routes do).
      const pages = express();
      pages.get(['/tool/:slug', '/blog/:slug'], (_req, res) => void res.end());
      pages.use(errorHandler);
      const res = await request(pages).get(path).set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8');
      expect(res.status).toBe(status);
      expect(res.type).toBe('text/html');
      expect(res.text).toContain(`<h1>${words}</h1>`);
      expect(res.text).toContain('AI Tools Directory');
      expect(res.text).toContain('<a href="/">Go to Homepage</a>');
      expect(res.text).not.toMatch(/<script|<style/);
      expectClean(res.text, 'script', '%ZZ', '%E0');
    },
  );

  it('a page form post that is too large gets the HTML 413 page; /api and files keep JSON', async () => {
    const mini = express();
    mini.post(
      /.*/,
      express.raw({ type: 'application/x-www-form-urlencoded', limit: '16kb' }),
      (_req, res) => void res.end(),
    );
    mini.get('/boom', () => {
      throw new Error('/srv/app/secret.ts exploded');
    });
    mini.use(errorHandler);
    const html = 'text/html,*/*;q=0.8';
    const big = await request(mini).post('/submit').set('Accept', html).type('form').send('x='.padEnd(20_000, 'a'));
    expect(big.status).toBe(413);
    expect(big.text).toContain('<h1>Request too large</h1>');
    const boom = await request(mini).get('/boom').set('Accept', html);
    expect(boom.status).toBe(500);
    expect(boom.text).toContain('<h1>Something went wrong</h1>');
    expectClean(boom.text, 'secret');
    for (const path of ['/api/tools/%E0%A4%A', '/remotes/legal/%C0%AF/x.js']) {
      const res = await request(app).get(path).set('Accept', html);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: 'Bad request' });
    }
    const missing = await request(app).get('/remotes/legal/1.0.0-r1/assets/missing-chunk.js').set('Accept', html);
    expect(missing.type).toBe('application/json');
  });

  it('only our own messages and fixed texts per status are ever sent', () => {
    expect(publicErrorMessage(new HttpError(400, 'Please correct the highlighted fields.'))).toBe(
      'Please correct the highlighted fields.',
    );
    expect(
      publicErrorMessage(Object.assign(new Error("ENOENT: no such file or directory, stat '/srv/x'"), { status: 404 })),
    ).toBe('Not found');
    expect(publicErrorMessage(Object.assign(new Error("Failed to decode param '%E0'"), { status: 400 }))).toBe(
      'Bad request',
    );
    expect(publicErrorMessage(Object.assign(new Error('secret'), { status: 418 }))).toBe('Request failed');
    expect(publicErrorMessage(new Error('/srv/app/db.ts exploded'))).toBe('Internal server error');
    expect(errorStatus({ status: 200 })).toBe(500);
    expect(errorStatus({ status: '404' })).toBe(500);
  });
});
