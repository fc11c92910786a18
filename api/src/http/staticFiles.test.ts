import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import express from 'express';
import compression from 'compression';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrecompressed } from './cachedResponse';
import { createStaticFileCache, type StaticFileCache } from './staticFiles';

let base: string;
let root: string;
/** Text like a module's: this project's own source. */
const JS = readFileSync(join(import.meta.dirname, 'cachedResponse.ts'), 'utf8');

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'static-files-'));
  root = join(base, 'assets');
  mkdirSync(root);
  writeFileSync(join(base, 'outside.js'), JS);
  writeFileSync(join(root, 'app.js'), JS);
  writeFileSync(join(root, 'small.js'), 'export {};\n');
  writeFileSync(join(root, 'logo.png'), Buffer.alloc(4096, 1));
  writeFileSync(join(root, '.secret.js'), JS);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** The site's arrangement (app.ts): the kept coding first, else Express's static files through compression. */
function site(files: StaticFileCache) {
  const app = express();
  app.use(
    compression({ filter: (req, res) => !isPrecompressed(res as express.Response) && compression.filter(req, res) }),
  );
  app.use(
    '/assets',
    (req, res, next) =>
      files.send(req, res, root, req.path.slice(1), 'public, max-age=31536000, immutable') ? undefined : next(),
    express.static(root, { fallthrough: false }),
  );
  return app;
}

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as sent, still coded. */
  body: Buffer;
}

/** One GET through a real socket, the body as it came (a client library would decode it). */
async function get(app: express.Express, path: string, headers: Record<string, string>): Promise<Raw> {
  const server = app.listen(0);
  await new Promise((r) => server.once('listening', r));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise<Raw>((resolve, reject) => {
      httpRequest({ port, path, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
        .on('error', reject)
        .end();
    });
  } finally {
    server.close();
  }
}

/** A GET that must come from the kept coding (its validator names the coding). */
async function kept(app: express.Express, path: string, coding: 'br' | 'gzip'): Promise<Raw> {
  const res = await get(app, path, { 'accept-encoding': coding });
  expect(res.headers.etag).toMatch(new RegExp(`-${coding}"$`));
  return res;
}

describe('static files in their best coding', () => {
  it('answers even the first request with brotli 11, smaller than the middleware makes, and keeps it', async () => {
    const files = createStaticFileCache({ maxBytes: 1 << 20 });
    const app = site(files);
    const withoutCache = express().use(compression()).use('/assets', express.static(root));
    const onTheFly = await get(withoutCache, '/assets/app.js', { 'accept-encoding': 'br' });
    expect(onTheFly.headers['content-encoding']).toBe('br'); // the middleware's, made for each request
    const [first, second] = await Promise.all([kept(app, '/assets/app.js', 'br'), kept(app, '/assets/app.js', 'br')]);
    for (const res of [first, second]) {
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers.vary).toMatch(/Accept-Encoding/);
      expect(brotliDecompressSync(res.body).toString()).toBe(JS);
    }
    expect(first.body.length).toBeLessThan(onTheFly.body.length);
    expect(files.bytes).toBeGreaterThan(first.body.length);
  });

  it('keeps gzip for a client without brotli, and sends a plain file to one that accepts neither', async () => {
    const app = site(createStaticFileCache({ maxBytes: 1 << 20 }));
    const gz = await kept(app, '/assets/app.js', 'gzip');
    expect(gunzipSync(gz.body).toString()).toBe(JS);
    const plain = await get(app, '/assets/app.js', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(JS);
  });

  it('answers 304 to its own validator', async () => {
    const app = site(createStaticFileCache({ maxBytes: 1 << 20 }));
    const first = await kept(app, '/assets/app.js', 'br');
    const again = await get(app, '/assets/app.js', { 'accept-encoding': 'br', 'if-none-match': first.headers.etag! });
    expect(again.status).toBe(304);
  });

  it('never serves an older copy of a file that changed', async () => {
    const app = site(createStaticFileCache({ maxBytes: 1 << 20 }));
    writeFileSync(join(root, 'changing.js'), JS);
    const before = await kept(app, '/assets/changing.js', 'br');
    const changed = `${JS}// changed\n`;
    writeFileSync(join(root, 'changing.js'), changed);
    utimesSync(join(root, 'changing.js'), new Date(), new Date(Date.now() + 5000));
    const after = await kept(app, '/assets/changing.js', 'br');
    expect(brotliDecompressSync(after.body).toString()).toBe(changed);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('leaves small, binary, hidden and outside files to Express', async () => {
    const files = createStaticFileCache({ maxBytes: 1 << 20 });
    const app = site(files);
    for (const path of [
      '/assets/small.js',
      '/assets/logo.png',
      '/assets/.secret.js',
      '/assets/..%2foutside.js',
      '/assets/%2e%2e/outside.js',
      '/assets/%2e%2e%2foutside.js',
    ]) {
      // Declined at once (false, not a promise): nothing is being compressed for it, now or later.
      const asked = { method: 'GET', headers: { 'accept-encoding': 'br' } } as express.Request;
      expect(files.send(asked, {} as express.Response, root, path.slice('/assets/'.length), 'public'), path).toBe(
        false,
      );
      await get(app, path, { 'accept-encoding': 'br' });
      await get(app, path, { 'accept-encoding': 'br' });
    }
    expect(files.bytes).toBe(0);
    expect((await get(app, '/assets/.secret.js', {})).status).toBe(404);
  });

  it('holds no more than its bound', async () => {
    const files = createStaticFileCache({ maxBytes: 8192 });
    const app = site(files);
    for (let i = 0; i < 6; i++) {
      writeFileSync(join(root, `many-${i}.js`), `${JS}// ${i}\n`);
      await kept(app, `/assets/many-${i}.js`, 'br');
      expect(files.bytes).toBeLessThanOrEqual(8192);
    }
  });
});
