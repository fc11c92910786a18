/** The console's upstreams: admins only (checked by the server), each change audited, "Sync now" running the job's
 *  own service against a local upstream. */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFICIAL_META_KEY, SERVER_SCHEMA_URL } from '@aitools/contracts/mcp';
import { signedInPerson, startConsoleTest, type ConsoleTest } from '../../test/consoleHarness';

let t: ConsoleTest;
let upstream: Server;
let base: string;
let status = 200;
beforeAll(async () => {
  upstream = createServer((_req, res) =>
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(
      JSON.stringify({
        servers: [
          {
            server: { $schema: SERVER_SCHEMA_URL, name: 'io.example/now', description: 'A server.', version: '1.0.0' },
            _meta: { [OFFICIAL_META_KEY]: { status: 'active', updatedAt: '2026-11-20T10:00:00Z' } },
          },
        ],
        metadata: { count: 1 },
      }),
    ),
  );
  upstream.listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  // The upstream is this machine's: the operator's allow-list names it.
  t = await startConsoleTest({ OUTBOUND_ALLOW: '127.0.0.1' });
});
afterAll(async () => {
  upstream.close();
  await t.close();
});

const auditRows = (action: string) =>
  t.db.selectFrom('console_audit').selectAll().where('action', '=', action).orderBy('id').execute();

describe('upstreams in the console', () => {
  it('an admin adds, edits, syncs and removes an upstream, each in the audit trail', async () => {
    const { browser } = await signedInPerson(t, 'Upstream admin', [{ role: 'admin' }]);
    const added = await browser.post('/api/upstreams', {
      url: `${base}/v0.1/servers`,
      policy: 'submissions',
      pagesPerRun: 5,
    });
    expect(added.status).toBe(201);
    const { id } = added.body.upstream;
    expect(added.body.upstream).toMatchObject({ url: base, policy: 'submissions', pagesPerRun: 5, lastSync: null });
    expect((await auditRows('upstream.add'))[0]).toMatchObject({
      actor: expect.stringMatching(/^person:\d+ Upstream admin$/),
      target: base,
      summary: `${base} (new servers: submissions, 5 pages per run)`,
    });

    const edited = await browser.post(`/api/upstreams/${id}`, { url: base, policy: 'list', pagesPerRun: 7 });
    expect(edited.body.upstream).toMatchObject({ policy: 'list', pagesPerRun: 7 });
    expect((await auditRows('upstream.edit'))[0]!.summary).toBe(
      `${base} (new servers: submissions, 5 pages per run) -> ${base} (new servers: list, 7 pages per run)`,
    );

    const synced = await browser.post(`/api/upstreams/${id}/sync`, {});
    expect(synced.body.result).toMatchObject({ outcome: 'ok', counts: { listed: 1 } });
    // Listed at once (the policy): the moderators' approval made it a tool.
    expect((await request(t.app).get('/api/tools/now')).status).toBe(200);
    const list = await browser.get('/api/upstreams');
    expect(list.body.upstreams[0].lastSync).toMatchObject({ outcome: 'ok', counts: { listed: 1 } });
    expect((await auditRows('upstream.sync'))[0]!.summary).toContain('1 listed');
    expect((await auditRows('registry.sync'))[0]).toMatchObject({ actor: 'job:sync', target: base });

    status = 500;
    const refused = await browser.post(`/api/upstreams/${id}/sync`, {});
    expect(refused.body.result).toMatchObject({ outcome: 'refused', reason: '/v0.1/servers answered 500' });
    expect((await auditRows('upstream.sync'))[1]!.summary).toBe('refused: /v0.1/servers answered 500');

    const removed = await browser.post(`/api/upstreams/${id}/remove`, {});
    expect(removed.body).toMatchObject({ removed: base });
    expect((await browser.get('/api/upstreams')).body.upstreams).toEqual([]);
    expect((await auditRows('upstream.remove'))[0]).toMatchObject({ target: base, summary: 'no longer followed' });
  });

  it('refuses a bad field by its label, a second copy of an address, and an unknown upstream', async () => {
    const { browser } = await signedInPerson(t, 'Careful admin', [{ role: 'admin' }]);
    const bad = await browser.post('/api/upstreams', { url: 'ftp://x.example', policy: 'mirror', pagesPerRun: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors).toEqual({
      url: 'Address must be a web address starting with https:// or http://, with no query or password',
      policy: 'New servers must be "submissions" or "list"',
      pagesPerRun: 'Pages per run must be a whole number from 1 to 1000',
    });
    expect(bad.body.error).toMatch(/^Not accepted: /);
    expect(bad.body.error).toContain('Pages per run');
    const first = await browser.post('/api/upstreams', { url: 'https://one.example', policy: 'list', pagesPerRun: 1 });
    expect(first.status).toBe(201);
    const again = await browser.post('/api/upstreams', { url: 'https://one.example/', policy: 'list', pagesPerRun: 1 });
    expect(again.status).toBe(409);
    expect(again.body.fieldErrors).toEqual({ url: 'This address is already followed' });
    expect((await browser.post('/api/upstreams/999/remove', {})).status).toBe(404);
    expect((await browser.post('/api/upstreams/999/sync', {})).status).toBe(404);
    const extra = await browser.post('/api/upstreams', {
      url: 'https://two.example',
      policy: 'list',
      pagesPerRun: 1,
      x: 1,
    });
    expect(extra.status).toBe(400);
  });

  it('refuses every call to a role that is not admin, with an audit row, changing nothing', async () => {
    const { browser } = await signedInPerson(t, 'Busy editor', [{ role: 'editor' }]);
    const before = await t.db.selectFrom('registry_upstreams').selectAll().execute();
    for (const [method, path] of [
      ['get', '/api/upstreams'],
      ['post', '/api/upstreams'],
      ['post', '/api/upstreams/1'],
      ['post', '/api/upstreams/1/remove'],
      ['post', '/api/upstreams/1/sync'],
    ] as const) {
      const res =
        method === 'get'
          ? await browser.get(path)
          : await browser.post(path, { url: 'https://evil.example', policy: 'list', pagesPerRun: 1 });
      expect(res.status, path).toBe(403);
    }
    expect(await t.db.selectFrom('registry_upstreams').selectAll().execute()).toEqual(before);
    const refusals = await t.db
      .selectFrom('console_audit')
      .select('action')
      .where('outcome', '=', 'refused')
      .where('actor', 'like', '%Busy editor')
      .execute();
    expect(refusals.map((r) => r.action).sort()).toEqual(
      ['upstream.add', 'upstream.edit', 'upstream.remove', 'upstream.sync', 'upstreams.read'].sort(),
    );
  });
});
