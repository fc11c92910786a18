import { describe, expect, it } from 'vitest';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { inProcessApi } from './inProcessApi';

/** A tiny JSON API, built once per use like the site's (one mounted for visitors, one for in-process calls). */
function jsonApi() {
  const api = express();
  api.post('/api/echo', express.json(), (req, res) => res.status(201).json({ ip: req.ip, got: req.body }));
  return api;
}

describe('inProcessApi', () => {
  it('calls the API in process with the visitor address, and the site keeps serving real requests afterwards', async () => {
    const site = express();
    site.use(jsonApi());
    const api = inProcessApi(jsonApi(), '203.0.113.7');
    site.post('/page', async (_req, res) =>
      res.status(200).json(await api.fetchJson('/api/echo', { method: 'POST', body: { a: 1 } })),
    );
    const server = site.listen(0);
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (let i = 0; i < 2; i++) {
        const page = await fetch(`${base}/page`, { method: 'POST' });
        expect(await page.json()).toEqual({ ok: true, status: 201, body: { ip: '203.0.113.7', got: { a: 1 } } });
      }
      // Before the fix, light-my-request had re-parented the site's request prototype: this crashed the server.
      const direct = await fetch(`${base}/api/echo`, {
        method: 'POST',
        body: '{"b":2}',
        headers: { 'content-type': 'application/json' },
      });
      expect(direct.status).toBe(201);
      expect((await direct.json()).got).toEqual({ b: 2 });
    } finally {
      server.close();
    }
  });
});
