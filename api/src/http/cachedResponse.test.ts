import { createServer, request as httpRequest, type Server } from 'node:http';
import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import express from 'express';
import { createApp, type SiteApp } from '../app';
import { loadConfig } from '../config';
import { openDatabase, type DB } from '../db/connection';
import { testDatabaseLocation } from '../../test/testDatabase';
import { dataVersion } from '../content/dataVersion';
import { seed } from '../seed';
import { seedTools } from '../tools/seed';
import { createLogger } from '../middleware/logger';
import { approveSubmission } from '../moderation/service';
import { admitted, createRateLimits, TOO_MANY_REQUESTS } from '../middleware/rateLimit';
import { insertSubmission } from '../forms/repository';
import { importServers } from '../registry/import';
import { DATA_DIR } from '../paths';
import {
  compress,
  createReplyCache,
  json,
  PATHS_MAX_BYTES,
  replayableAnswers,
  REPLY_BROTLI,
  STATIC_BROTLI,
} from './cachedResponse';

let dir: string;
/** The database (an SQLite file, or a Postgres schema): opened twice below, as two processes would. */
let location: string;
let db: DB;
let app: SiteApp;
/** The server's log lines (the front lane marks its own). */
const logLines: { msg: string; lane?: string; req?: { url: string }; res?: { statusCode: number } }[] = [];
let server: Server;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cached-reads-'));
  location = await testDatabaseLocation(join(dir, 'site.sqlite'));
  db = await openDatabase(location);
  await seed(db);
  const logs = new Writable({ write: (chunk, _enc, done) => (logLines.push(JSON.parse(String(chunk))), done()) });
  app = await createApp({
    config: loadConfig({ NODE_ENV: 'test' }),
    db,
    logger: createLogger('info', 'json', logs),
    pages: false,
  });
  // As main.ts serves it: the front lane, then Express.
  await new Promise<void>((resolve) => (server = createServer(app.handler).listen(0, '127.0.0.1', () => resolve())));
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

/** The bytes on the wire (supertest would decode them), with the headers. */
function raw(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const { port } = server.address() as { port: number };
  return new Promise((resolve, reject) => {
    httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

const etag = async (path: string) => (await request(server).get(path)).headers.etag as string;

describe('cached reads', () => {
  it('answers a read Express has answered from the front lane: the same status, headers and bytes, logged', async () => {
    const path = '/api/tools?category=Coding&page=1';
    const linesFor = () => logLines.filter((l) => l.req?.url === path);
    const strip = (h: Record<string, unknown>) => Object.fromEntries(Object.entries(h).filter(([k]) => k !== 'date'));
    for (const encoding of ['br', 'gzip', '']) {
      const first = await raw(path, { 'accept-encoding': encoding });
      const again = await raw(path, { 'accept-encoding': encoding });
      expect(again.status).toBe(200);
      expect(strip(again.headers)).toEqual(strip(first.headers));
      expect(again.body.equals(first.body)).toBe(true);
      expect(again.headers['content-security-policy']).toContain("default-src 'self'");
      const revalidated = await raw(path, { 'accept-encoding': encoding, 'if-none-match': String(first.headers.etag) });
      expect(revalidated.status).toBe(304);
      expect(revalidated.headers['x-content-type-options']).toBe('nosniff');
    }
    // Express answered the first request for each coding (which made that coding's bytes); every later one is the
    // front lane's, each logged like any request.
    expect(linesFor().map((l) => l.lane ?? 'express')).toEqual([
      'express',
      'front',
      'front',
      'express',
      ...Array(5).fill('front'),
    ]);
    expect(linesFor().every((l) => l.msg === 'request completed')).toBe(true);
    expect(linesFor().at(-1)!.res!.statusCode).toBe(304);
    // A missing tool stays a 404 when replayed, and anything not a read goes to Express (a read path: 405).
    for (let i = 0; i < 2; i++) expect((await request(server).get('/api/tools/no-such-tool')).status).toBe(404);
    expect((await request(server).post(path).send({})).status).toBe(405);
  });

  it('sends br, gzip or identity as the client accepts (br first), each decoding to the same JSON, compressed once', async () => {
    const br = await raw('/api/tools', { 'accept-encoding': 'gzip, deflate, br' });
    const gz = await raw('/api/tools', { 'accept-encoding': 'gzip' });
    const plain = await raw('/api/tools');
    expect([br.headers['content-encoding'], gz.headers['content-encoding'], plain.headers['content-encoding']]).toEqual(
      ['br', 'gzip', undefined],
    );
    for (const r of [br, gz, plain]) {
      expect(r.headers.vary).toBe('Accept-Encoding');
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Number(r.headers['content-length'])).toBe(r.body.length);
    }
    const json = JSON.parse(plain.body.toString('utf8'));
    expect(json.success).toBe(true);
    expect(json.data.length).toBeGreaterThan(150);
    expect(JSON.parse(brotliDecompressSync(br.body).toString('utf8'))).toEqual(json);
    expect(JSON.parse(gunzipSync(gz.body).toString('utf8'))).toEqual(json);
    // A client that ranks gzip above br gets gzip.
    expect((await raw('/api/tools', { 'accept-encoding': 'br;q=0.5, gzip' })).headers['content-encoding']).toBe('gzip');
  });

  it("codes brotli with the smallest window that holds the body, at most 64 KiB for a reply, as the stream's header says", async () => {
    // The window's bits are the header's first 1-7 bits, least significant first (RFC 7932, 9.1).
    const windowBitsOf = (stream: Buffer) => {
      const first = stream.readUInt8(0);
      if ((first & 1) === 0) return 16;
      const n = (first >> 1) & 7;
      if (n) return 17 + n;
      const m = (first >> 4) & 7;
      return m ? 8 + m : 17;
    };
    for (const [bytes, reply, kept] of [
      [200, 10, 10],
      [1_500, 11, 11],
      [13_806, 14, 14],
      [100_280, 16, 17],
      [300_000, 16, 19],
    ]) {
      const body = Buffer.from(
        randomBytes(Math.ceil(bytes / 2))
          .toString('hex')
          .slice(0, bytes),
      );
      for (const [setting, bits] of [
        [REPLY_BROTLI, reply],
        [STATIC_BROTLI, kept],
      ] as const) {
        const coded = await compress(body, 'br', setting);
        expect(windowBitsOf(coded), `${bytes} bytes at quality ${setting.quality}`).toBe(bits);
        expect(brotliDecompressSync(coded).equals(body)).toBe(true);
      }
    }
    // What is served is coded so: the seed's tool list (about 80 kB) with a 64 KiB window, not the default 4 MiB.
    const br = await raw('/api/tools', { 'accept-encoding': 'br' });
    expect(brotliDecompressSync(br.body).length).toBeGreaterThan(65_536);
    expect(windowBitsOf(br.body)).toBe(16);
  });

  it('answers If-None-Match with 304 for the validator of any coding of the same body', async () => {
    const gz = await raw('/api/tools', { 'accept-encoding': 'gzip' });
    const plain = await raw('/api/tools');
    expect(gz.headers.etag).toMatch(/^"[\w-]+-gz"$/);
    expect(plain.headers.etag).toMatch(/^"[\w-]+"$/);
    for (const tag of [gz.headers.etag, plain.headers.etag, `W/${plain.headers.etag}`, `"other", ${gz.headers.etag}`]) {
      const res = await raw('/api/tools', { 'accept-encoding': 'gzip', 'if-none-match': String(tag) });
      expect(res.status).toBe(304);
      expect(res.body.length).toBe(0);
    }
    expect((await raw('/api/tools', { 'if-none-match': '"stale"' })).status).toBe(200);
  });

  it('keeps each route its own status, shape and Cache-Control', async () => {
    const missing = await request(server).get('/api/tools/no-such-tool');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ success: false, error: 'Tool not found' });
    expect(missing.headers.etag).toBeUndefined();
    expect((await request(server).get('/v0.1/servers?limit=0')).status).toBe(400);
    const sitemap = await request(server).get('/sitemap.xml');
    // What the data makes is revalidated at every ask, never kept by a shared cache: a change shows at once.
    for (const path of ['/sitemap.xml', '/feeds/blog.xml', '/feeds/tools.xml', '/v0.1/servers'])
      expect((await request(server).get(path)).headers['cache-control'], path).toBe('no-cache');
    expect(sitemap.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect((await request(server).get('/feeds/blog.xml')).headers['content-type']).toBe(
      'application/atom+xml; charset=utf-8',
    );
    expect((await request(server).get('/api/blog/public/posts')).headers['cache-control']).toBe('no-cache');
  });

  it('changes the validator after an approval, and not after a contact message', async () => {
    const before = {
      list: await etag('/api/tools'),
      sitemap: await etag('/sitemap.xml'),
      version: await dataVersion(db),
    };
    const contact = await request(server)
      .post('/api/contact/submit')
      .send({ name: 'Ada', email: 'ada@example.com', subject: 'partnership', message: 'Hello' });
    expect(contact.status).toBe(200);
    expect(await dataVersion(db)).toBe(before.version);
    expect(await etag('/api/tools')).toBe(before.list);

    const id = await insertSubmission(db, {
      name: 'Cache Test AI',
      email: 'o@example.com',
      website_url: 'https://cache.example',
      tool_type: 'ai-tool',
      description: 'Caches',
      message: null,
    });
    expect(await dataVersion(db)).toBe(before.version);
    await approveSubmission(db, id, { today: '2026-11-23' });
    expect(await dataVersion(db)).toBeGreaterThan(before.version);
    expect(await etag('/api/tools')).not.toBe(before.list);
    expect(await etag('/sitemap.xml')).not.toBe(before.sitemap);
    expect((await request(server).get('/api/tools/cache-test-ai')).body.name).toBe('Cache Test AI');
  });

  it('changes the validator after a registry import that updates a record', async () => {
    const path = '/api/tools/context7-mcp-server';
    const before = await etag(path);
    const record = JSON.parse(readFileSync(join(DATA_DIR, 'mcp-servers.json'), 'utf8'))['context7-mcp-server'];
    const docs = join(dir, 'import');
    mkdirSync(docs, { recursive: true });
    writeFileSync(
      join(docs, 'context7.json'),
      JSON.stringify({ ...record, version: '1.2.3', description: 'Up-to-date code docs, imported' }),
    );
    expect((await importServers(db, docs)).updated).toHaveLength(1);
    expect(await etag(path)).not.toBe(before);
    expect((await request(server).get(path)).body.mcpServer.description).toBe('Up-to-date code docs, imported');
  });

  it('changes the validator after a seed that adds a tool, and keeps it after a seed that changes nothing', async () => {
    const version = await dataVersion(db);
    await seed(db);
    expect(await dataVersion(db)).toBe(version);
    const before = await etag('/api/tools/chatgpt');
    const list = await etag('/api/tools');
    const tools = join(dir, 'tools');
    mkdirSync(tools, { recursive: true });
    const chatgpt = JSON.parse(readFileSync(join(DATA_DIR, 'tools', 'ai-tools-1.json'), 'utf8')).find(
      (t: { slug: string }) => t.slug === 'chatgpt',
    );
    // A newer file for a stored tool is not applied (the seed is the initial data only); a new slug is.
    writeFileSync(join(tools, 'one.json'), JSON.stringify([{ ...chatgpt, description: 'A changed description' }]));
    await seedTools(db, tools);
    expect(await dataVersion(db)).toBe(version);
    expect(await etag('/api/tools/chatgpt')).toBe(before);
    writeFileSync(join(tools, 'one.json'), JSON.stringify([{ ...chatgpt, slug: 'chatgpt-two', name: 'ChatGPT Two' }]));
    await seedTools(db, tools);
    expect(await dataVersion(db)).toBe(version + 1);
    expect(await etag('/api/tools')).not.toBe(list);
  });

  it('sees a write made by another connection to the same database (another process or instance)', async () => {
    const before = await etag('/api/tools');
    const other = await openDatabase(location);
    try {
      const id = await insertSubmission(other, {
        name: 'Other Process AI',
        email: 'o@example.com',
        website_url: 'https://other.example',
        tool_type: 'ai-tool',
        description: 'x',
        message: null,
      });
      await approveSubmission(other, id);
    } finally {
      await other.destroy();
    }
    const res = await request(server).get('/api/tools');
    expect(res.headers.etag).not.toBe(before);
    expect(res.body.data.some((t: { slug: string }) => t.slug === 'other-process-ai')).toBe(true);
  });
});

describe('the front lane', () => {
  it('replays only answers of the public stack, with its headers, not those made for server rendering', async () => {
    const reads = createReplyCache({ version: () => 1, maxBytes: 1024 * 1024 });
    const route = reads.route([], () => json({ hello: 'world' }));
    // Server rendering calls the same reads in process, through a stack without the public headers.
    const inProcess = express().get('/api/hello', route);
    const publicStack = express()
      .use(replayableAnswers)
      .use((_req, res, next) => (res.set('X-Frame-Options', 'SAMEORIGIN'), next()))
      .get('/api/hello', route);
    const front = createServer((req, res) => (reads.replay(req, res) === true ? undefined : publicStack(req, res)));
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(front.address() as { port: number }).port}`;
    try {
      expect((await request(inProcess).get('/api/hello')).body).toEqual({ hello: 'world' });
      // Not replayable yet: Express answers, with the public headers, and that answer becomes the replayed one.
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${base}/api/hello`);
        expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
        expect(await res.json()).toEqual({ hello: 'world' });
      }
    } finally {
      await new Promise((r) => front.close(r));
    }
  });
});

describe('the address a read is kept under', () => {
  it('holds the parameters the route reads alone, sorted; the route sees no other, and the front lane keys alike', async () => {
    const reads = createReplyCache({ version: () => 1, maxBytes: 1024 * 1024 });
    const produced: unknown[] = [];
    const publicStack = express()
      .use(replayableAnswers)
      .get(
        '/api/list',
        reads.route(['search', 'page'], (req) => (produced.push(req.query), json({ query: req.query }))),
      );
    const lanes: string[] = [];
    const front = createServer((req, res) => {
      if (reads.replay(req, res) === true) return void lanes.push('front');
      lanes.push('express');
      void publicStack(req, res);
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(front.address() as { port: number }).port}`;
    try {
      const first = await (await fetch(`${base}/api/list?utm_source=a&page=2&search=x`)).json();
      expect(first).toEqual({ query: { page: '2', search: 'x' } });
      // Learned from the route's first answer: these go out from the front lane, never produced again.
      for (const url of ['/api/list?search=x&page=2', '/api/list?page=2&search=x&utm_source=b'])
        expect(await (await fetch(base + url)).json()).toEqual(first);
      expect(lanes).toEqual(['express', 'front', 'front']);
      expect(produced).toHaveLength(1);
      // Another value of a parameter read is another answer.
      expect(await (await fetch(`${base}/api/list?page=3&search=x`)).json()).toEqual({
        query: { page: '3', search: 'x' },
      });
      expect(produced).toHaveLength(2);
    } finally {
      await new Promise((r) => front.close(r));
    }
  });
});

describe("a visitor's reads that miss", () => {
  it("are limited per address; a cached answer and server rendering's own reads never count", async () => {
    const limit = createRateLimits({ formsPerMinute: 1, eventsPerMinute: 1, uncachedReadsPerMinute: 2 })[
      'uncached-reads'
    ];
    const reads = createReplyCache({
      version: () => 1,
      maxBytes: 1024 * 1024,
      admit: (req, res) => admitted(limit, req, res),
    });
    let produced = 0;
    const route = reads.route(['search'], (req) => (produced++, json({ search: req.query.search })));
    const inProcess = express().set('trust proxy', 1).get('/api/list', route);
    const publicStack = express().set('trust proxy', 1).use(replayableAnswers).get('/api/list', route);
    const from = (address: string, search: string) =>
      request(publicStack).get(`/api/list?search=${search}`).set('X-Forwarded-For', address);
    for (const search of ['a', 'a', 'b', 'a', 'b']) expect((await from('203.0.113.1', search)).status).toBe(200);
    expect(produced).toBe(2);
    const refused = await from('203.0.113.1', 'c');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, error: TOO_MANY_REQUESTS });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['ratelimit']).toBeUndefined();
    expect(produced).toBe(2);
    // Server rendering's reads (the in-process stack) are the page's, already counted.
    expect((await request(inProcess).get('/api/list?search=d').set('X-Forwarded-For', '203.0.113.1')).status).toBe(200);
    expect((await from('203.0.113.2', 'c')).status).toBe(200);
    // An answer let through carries no count of its own: the caches send it to everyone.
    expect((await from('203.0.113.3', 'e')).headers['ratelimit-policy']).toBeUndefined();
  });
});

describe('the paths a cache learns', () => {
  const long = (n: number) => `/t/${String(n).padStart(8, '0')}${'x'.repeat(10_000)}`;
  it('learns none from a read its budget refused, and holds no more path bytes than its bound', async () => {
    let admit = false;
    const reads = createReplyCache({
      version: () => 1,
      maxBytes: 1024 * 1024,
      admit: async (_req, res) => admit || (res.status(429).json({ success: false, error: TOO_MANY_REQUESTS }), false),
    });
    const app = express()
      .use(replayableAnswers)
      .get(
        '/t/:slug',
        reads.route([], () => json({ success: false, error: 'Tool not found' }, 404)),
      );
    for (let n = 0; n < 20; n++) expect((await request(app).get(long(n))).status).toBe(429);
    expect(reads.held()).toEqual({ replies: 0, paths: 0 });
    // Admitted, each 10 kB path is learned, until the bound: 200 of them would be 4 MB.
    admit = true;
    for (let n = 0; n < 200; n++) expect((await request(app).get(long(n))).status).toBe(404);
    const { paths, replies } = reads.held();
    expect(paths).toBeGreaterThan(PATHS_MAX_BYTES * 0.9);
    expect(paths).toBeLessThanOrEqual(PATHS_MAX_BYTES);
    expect(replies).toBeLessThanOrEqual(1024 * 1024);
  });
});

describe('Date', () => {
  it("is the time of sending on a replayed answer, never the stored answer's", async () => {
    const reads = createReplyCache({ version: () => 1, maxBytes: 1024 * 1024 });
    // Express's answer carries an old Date (as a stored answer's would be by the time it is sent again).
    const OLD = 'Thu, 01 Jan 2026 00:00:00 GMT';
    const publicStack = express()
      .use(replayableAnswers)
      .use((_req, res, next) => (res.setHeader('Date', OLD), next()))
      .get(
        '/api/hello',
        reads.route([], () => json({ hello: 'world' })),
      );
    const lanes: string[] = [];
    const front = createServer((req, res) => {
      if (reads.replay(req, res) === true) return void lanes.push('front');
      lanes.push('express');
      void publicStack(req, res);
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(front.address() as { port: number }).port}`;
    try {
      expect((await fetch(`${base}/api/hello`)).headers.get('date')).toBe(OLD);
      const replayed = await fetch(`${base}/api/hello`);
      expect(lanes).toEqual(['express', 'front']);
      expect(replayed.headers.get('date')).not.toBe(OLD);
      expect(Date.parse(replayed.headers.get('date')!)).toBeGreaterThan(Date.parse(OLD));
    } finally {
      await new Promise((r) => front.close(r));
    }
  });
});

describe('the bytes a cache holds', () => {
  // Text that compresses little, so each coding adds real bytes.
  const noise = randomBytes(6000).toString('base64');
  const page = (n: number) => json({ n, text: noise });

  it('keeps each body in a buffer of its own, so the count is what is held (no view into a larger block)', async () => {
    const reads = createReplyCache({ version: () => 1, maxBytes: 1024 * 1024 });
    const app = express()
      .use(replayableAnswers)
      .get(
        '/p/:n',
        reads.route([], (req) => page(Number(req.params.n))),
      );
    for (const encoding of ['br', 'gzip', 'identity']) await request(app).get('/p/1').set('accept-encoding', encoding);
    const small = await reads.get('small', () => json({ ok: true }));
    const entry = await reads.get('/p/1', () => page(1));
    for (const e of [small, entry])
      for (const body of Object.values(e.bodies))
        expect([body.byteOffset, body.buffer.byteLength]).toEqual([0, body.length]);
    expect(Object.keys(entry.bodies).sort()).toEqual(['br', 'gzip', 'identity']);
    const held = Object.values(entry.bodies).reduce((n, b) => n + b.buffer.byteLength, 0);
    expect(entry.size).toBeGreaterThan(held);
    expect(entry.size).toBeLessThan(held + 4096);
  });

  it('makes a coding only when a client asks for it, and evicts to stay within its bound as codings are added', async () => {
    const bodyBytes = Buffer.byteLength(page(0).body);
    const reads = createReplyCache({ version: () => 1, maxBytes: 4 * (bodyBytes + 2048) + 1000 });
    const app = express()
      .use(replayableAnswers)
      .get(
        '/p/:n',
        reads.route([], (req) => page(Number(req.params.n))),
      );
    for (let n = 0; n < 4; n++) await request(app).get(`/p/${n}`).set('accept-encoding', 'identity');
    expect(Object.keys((await reads.lookup('/p/3')).hit!.bodies)).toEqual(['identity']);
    // Compressed copies of the newest pages push the oldest out rather than growing past the bound.
    await request(app).get('/p/3').set('accept-encoding', 'br');
    await request(app).get('/p/3').set('accept-encoding', 'gzip');
    expect(Object.keys((await reads.lookup('/p/3')).hit!.bodies).sort()).toEqual(['br', 'gzip', 'identity']);
    expect((await reads.lookup('/p/0')).hit).toBeUndefined();
    expect((await reads.lookup('/p/3')).hit).toBeDefined();
  });
});
