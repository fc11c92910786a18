import { IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import express, { type Express } from 'express';
import { loadConfig } from '../config';
import type { DB } from '../db/connection';
import { countRows, openTestDatabase } from '../../test/testDatabase';
import { errorHandler, notFoundApi } from '../middleware/errors';
import { createLogger } from '../middleware/logger';
import { createRateLimits } from '../middleware/rateLimit';
import { formsRouter } from '../forms/router';
import { createReplyCache, json, type ReplyCache } from '../http/cachedResponse';
import { inProcessApi } from './inProcessApi';

let db: DB;
let site: Express;
let api: Express;
let reads: ReplyCache;
let base: string;
let close: () => void;
/** What the API app saw of each request: the caller's address and the codings it accepts. */
let seen: { ip: string | undefined; acceptEncoding: string | undefined }[];

/** A site as app.ts builds it: one JSON API app (the real forms routes and write limits, one post a minute per
 *  visitor) mounted for visitors, the same app called in process by server rendering. */
beforeEach(async () => {
  db = await openTestDatabase();
  seen = [];
  api = express();
  api.use((req, _res, next) => {
    seen.push({ ip: req.ip, acceptEncoding: req.headers['accept-encoding'] });
    next();
  });
  api.get('/api/text', (_req, res) => res.type('text/plain').send('not JSON'));
  // A cached read worth compressing (over 1 kB).
  reads = createReplyCache({ version: () => 1, maxBytes: 1024 * 1024 });
  api.get(
    '/api/list',
    reads.route([], () => json({ names: Array.from({ length: 200 }, (_, i) => `tool ${i}`) })),
  );
  const limits = createRateLimits({ formsPerMinute: 1, eventsPerMinute: 1 });
  api.use(
    '/api',
    formsRouter({ db, config: loadConfig({ NODE_ENV: 'test' }), logger: createLogger('silent'), limits }),
  );
  api.use('/api', notFoundApi);
  api.use(errorHandler);
  site = express();
  site.use(api);
  const server = await new Promise<Server>((resolve) => {
    const listening = site.listen(0, '127.0.0.1', () => resolve(listening));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterEach(async () => {
  close();
  await db.destroy();
});

const signUp = (n: number) => ({ method: 'POST' as const, body: { email: `visitor${n}@example.com` } });

describe('inProcessApi', () => {
  it("answers a page's form post with the real route, counting the visitor's address against the write limit", async () => {
    const apiFor = inProcessApi(api);
    const first = apiFor('203.0.113.7');
    expect(await first.fetchJson('/api/early-access', signUp(1))).toEqual({
      ok: true,
      status: 200,
      body: { success: true },
    });
    expect((await first.fetchJson('/api/early-access', signUp(2))).status).toBe(429);
    // Another visitor has a budget of their own, and so has the server's own address.
    expect((await apiFor('198.51.100.2').fetchJson('/api/early-access', signUp(3))).status).toBe(200);
    expect((await apiFor(undefined).fetchJson('/api/early-access', signUp(4))).status).toBe(200);
    expect(seen.map((s) => s.ip)).toEqual(['203.0.113.7', '203.0.113.7', '198.51.100.2', '127.0.0.1']);
    expect(await countRows(db, 'early_access')).toBe(3);
  });

  it('reports the status of a refused post with its field errors, and a body that is not JSON as none', async () => {
    const visitor = inProcessApi(api)('203.0.113.7');
    const invalid = await visitor.fetchJson('/api/early-access', { method: 'POST', body: { email: 'nope' } });
    expect(invalid).toMatchObject({ ok: false, status: 400, body: { fieldErrors: { email: expect.any(String) } } });
    expect(await visitor.fetchJson('/api/text')).toEqual({ ok: true, status: 200, body: null });
    expect((await visitor.fetchJson('/api/no-such-route')).status).toBe(404);
  });

  it('asks for no coding: a cached read made for a page keeps no compressed copy until a browser asks', async () => {
    const list = await inProcessApi(api)('203.0.113.7').fetchJson<{ names: string[] }>('/api/list');
    expect(list.body?.names).toHaveLength(200);
    expect(seen).toEqual([{ ip: '203.0.113.7', acceptEncoding: undefined }]);
    expect(Object.keys((await reads.lookup('/api/list')).hit!.bodies)).toEqual(['identity']);
    const browser = await fetch(`${base}/api/list`, { headers: { 'accept-encoding': 'br' } });
    expect(browser.headers.get('content-encoding')).toBe('br');
    expect(((await browser.json()) as { names: string[] }).names).toHaveLength(200);
    expect(Object.keys((await reads.lookup('/api/list')).hit!.bodies).sort()).toEqual(['br', 'identity']);
  });

  it("leaves Express's request and response prototypes as they are: the same API app still serves real requests", async () => {
    const visitor = inProcessApi(api)('203.0.113.7');
    for (let i = 1; i <= 2; i++) await visitor.fetchJson('/api/early-access', signUp(i));
    // A mounted app's request and response inherit the site's, and the site's Express's own, down to Node's.
    expect(Object.getPrototypeOf(api.request)).toBe(site.request);
    expect(Object.getPrototypeOf(site.request)).toBe(express.request);
    expect(Object.getPrototypeOf(express.request)).toBe(IncomingMessage.prototype);
    expect(Object.getPrototypeOf(api.response)).toBe(site.response);
    expect(Object.getPrototypeOf(site.response)).toBe(express.response);
    expect(Object.getPrototypeOf(express.response)).toBe(ServerResponse.prototype);
    const direct = await fetch(`${base}/api/early-access`, {
      method: 'POST',
      body: JSON.stringify({ email: 'direct@example.com' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(direct.status).toBe(200);
    expect(await direct.json()).toEqual({ success: true });
    expect(seen.at(-1)?.ip).toBe('127.0.0.1');
  });
});
