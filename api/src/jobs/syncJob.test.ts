/** The `sync` job: the upstream sync run by the job runner, its counts in the run's row, a refusal failing the run
 *  with the upstream's reason. */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OFFICIAL_META_KEY, SERVER_SCHEMA_URL } from '@aitools/contracts/mcp';
import { loadConfig } from '../config';
import { openDatabase } from '../db/connection';
import { createLogger } from '../middleware/logger';
import { addUpstream } from '../registry/upstreams';
import { createJobRunner } from './runner';
import { listRuns } from './runs';
import { siteJobs } from './siteJobs';

let status = 200;
let upstream: Server;
let base: string;
beforeAll(async () => {
  upstream = createServer((_req, res) =>
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(
      JSON.stringify({
        servers: [
          {
            server: { $schema: SERVER_SCHEMA_URL, name: 'io.example/job', description: 'A server.', version: '1.0.0' },
            _meta: { [OFFICIAL_META_KEY]: { status: 'active', updatedAt: '2026-11-20T10:00:00Z' } },
          },
        ],
      }),
    ),
  );
  upstream.listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(() => upstream.close());

describe('the sync job', () => {
  it("is one of the site's jobs, hourly unless JOB_SYNC_EVERY says otherwise", () => {
    const logger = createLogger('silent');
    expect(siteJobs({ config: loadConfig({}), logger }).find((j) => j.name === 'sync')?.every).toBe(3_600_000);
    const quick = siteJobs({ config: loadConfig({ JOB_SYNC_EVERY: '5000' }), logger });
    expect(quick.find((j) => j.name === 'sync')?.every).toBe(5000);
  });

  it('syncs every upstream; its run keeps the counts, and a refused upstream fails the run with the reason', async () => {
    const db = await openDatabase(':memory:');
    const logger = createLogger('silent');
    // The upstream is this machine's: the operator's allow-list names it.
    const config = loadConfig({ OUTBOUND_ALLOW: '127.0.0.1' });
    const runner = createJobRunner({ db, jobs: siteJobs({ config, logger }), logger });
    try {
      await addUpstream(db, { url: base, policy: 'submissions', pagesPerRun: 5 });
      // The site's sync is paced (registry/sync.ts SYNC_SHARE: it rests nine times its work between pages), so a run
      // lasts ten times its work: waited for until it has ended, however loaded the machine.
      const runs = async (n: number) =>
        vi.waitFor(
          async () => {
            const all = await listRuns(db, { job: 'sync' });
            if (all.length < n || all.some((r) => r.status === 'running')) throw new Error('not finished');
            return all;
          },
          { timeout: 120_000, interval: 50 },
        );
      await runner.runNow('sync', 'cli:test');
      const [ok] = await runs(1);
      expect(ok).toMatchObject({ status: 'ok', counts: { added: 1 } });
      expect(await db.selectFrom('submission_servers').select('name').execute()).toEqual([{ name: 'io.example/job' }]);

      status = 502;
      await runner.runNow('sync', 'cli:test');
      const [failed] = await runs(2);
      expect(failed).toMatchObject({ status: 'failed', reason: `${base} refused: /v0.1/servers answered 502` });
    } finally {
      await runner.stop();
      await db.destroy();
    }
  });
});
