/**
 * Jobs in the running site, on Postgres with two instances (the production build): each scheduled run happens once
 * across both (the run rows are counted per slot), both follow one upstream registry and each of its syncs runs once
 * (the job's runs, the kept syncs and the upstream's requests counted), and a run whose instance is killed mid-way is
 * retried by the other, which finishes it. The versions job asks a local npm registry served here, which holds its
 * first request open so the run is caught mid-way; the upstream is a local /v0.1 served here too.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort, runReleaseCli, startServerProcess, stopServerProcess } from '../harness';
import { queryPostgres, throwawayPostgres } from '../db';
import { eventually } from '../operators';
import { OFFICIAL_META_KEY, SERVER_SCHEMA_URL } from '@aitools/contracts/mcp';

const ADMIN_URL = process.env.E2E_DATABASE_URL;

interface RunRow {
  id: number;
  job: string;
  slot: string;
  attempt: number;
  trigger: string;
  instance: string;
  status: string;
  reason: string | null;
  summary: string;
}

describe(
  'jobs on two instances sharing Postgres',
  { skip: ADMIN_URL ? false : 'no Postgres server (npm test starts one when PostgreSQL is installed)' },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'aitools-jobs-'));
    const releasesDir = join(dir, 'releases');
    let database: Awaited<ReturnType<typeof throwawayPostgres>> | undefined;
    let databaseUrl = '';
    const ports: number[] = [];
    const servers: (ChildProcess | undefined)[] = [];
    /** The package registries' answers (npm's and PyPI's, served here): each package at its recorded version, one
     *  npm package at a newer one. */
    const versions = new Map<string, string>();
    const pypi = new Map<string, string>();
    let bumped = '';
    /** The held first request of the versions job (answered never: its instance is killed). */
    let held: IncomingMessage | undefined;
    const npm = createServer((req: IncomingMessage, res: ServerResponse) => {
      if (!held) {
        held = req;
        return;
      }
      const python = /^\/pypi\/([^/]+)\/json$/.exec(req.url ?? '');
      if (python) {
        const version = pypi.get(decodeURIComponent(python[1]!));
        if (!version) return void res.writeHead(404).end('{}');
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ info: { version } }));
      }
      const name = decodeURIComponent((req.url ?? '').replace(/^\//, '').replace(/\/latest$/, ''));
      const version = name === bumped ? '99.0.0' : versions.get(name);
      if (!version) return void res.writeHead(404).end('{}');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name, version }));
    });

    /** The followed upstream: one server on one page, every time; each request counted. */
    const upstreamAsked: string[] = [];
    const upstream = createServer((req: IncomingMessage, res: ServerResponse) => {
      upstreamAsked.push(req.url ?? '');
      const server = {
        $schema: SERVER_SCHEMA_URL,
        name: 'io.example/followed-twice',
        description: 'A server both followers follow.',
        version: '1.0.0',
      };
      const meta = { [OFFICIAL_META_KEY]: { status: 'active', updatedAt: '2026-11-20T10:00:00Z' } };
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ servers: [{ server, _meta: meta }], metadata: { count: 1 } }));
    });

    const rows = (job: string) =>
      queryPostgres<RunRow>(databaseUrl, 'SELECT * FROM job_runs WHERE job = $1 ORDER BY id', job);

    before(async () => {
      database = await throwawayPostgres(ADMIN_URL!, 'aitools_jobs');
      databaseUrl = database.url;
      cpSync(process.env.RELEASES_DIR!, releasesDir, { recursive: true });
      const takeover = await runReleaseCli({ RELEASES_DIR: releasesDir, DATABASE_URL: databaseUrl }, ['list']);
      assert.equal(takeover.status, 0, takeover.stderr);
      await new Promise<void>((resolve) => npm.listen(0, '127.0.0.1', resolve));
      const npmUrl = `http://127.0.0.1:${(npm.address() as AddressInfo).port}`;
      await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
      const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
      ports.push(await freePort(), await freePort());
      for (const i of [0, 1]) mkdirSync(join(dir, `instance-${i}`));
      const start = (i: number) =>
        startServerProcess({
          PORT: String(ports[i]),
          DATABASE_URL: databaseUrl,
          RELEASES_DIR: join(dir, `instance-${i}`),
          SITE_ORIGIN: `http://localhost:${ports[i]}`,
          NODE_ENV: 'production',
          LOG_LEVEL: 'silent',
          PREVIEW_SECRET: 'jobs-spec',
          NPM_REGISTRY_URL: npmUrl,
          PYPI_URL: npmUrl,
          // A slot every second for the posts, every 20 s for the versions; a dead run is found within ~12 s.
          JOB_PUBLISH_POSTS_EVERY: '1000',
          JOB_VERSIONS_EVERY: '20000',
          JOB_INSPECT_EVERY: '3600000',
          // Both follow the upstream served here (on this machine: the SSRF guard's allow-list names it), every 2 s.
          REGISTRY_UPSTREAMS: upstreamUrl,
          OUTBOUND_ALLOW: '127.0.0.1',
          JOB_SYNC_EVERY: '2000',
          JOBS_POLL_SECONDS: '0.5',
          JOBS_HEARTBEAT_SECONDS: '10',
          JOBS_SUPERVISE_SECONDS: '1',
        });
      // Pushed one by one, so an instance that started is stopped even when the next one fails to.
      for (const i of [0, 1]) servers.push(await start(i));
      // Every npm package of the seeded records, answered at its recorded version (1.0.0 where none is recorded);
      // the first at a newer one.
      const records = await queryPostgres<{ doc: string }>(databaseUrl, 'SELECT doc FROM mcp_servers ORDER BY name');
      for (const r of records) {
        const doc = JSON.parse(r.doc) as {
          version?: string;
          packages?: { registryType: string; identifier: string; version?: string }[];
        };
        for (const pkg of doc.packages ?? []) {
          const recorded = pkg.version ?? doc.version ?? '1.0.0';
          if (pkg.registryType === 'npm') versions.set(pkg.identifier, recorded);
          if (pkg.registryType === 'pypi') pypi.set(pkg.identifier, recorded);
        }
      }
      bumped = [...versions.keys()][0]!;
      assert.ok(versions.size > 5, 'the seed lists npm-packaged servers');
    });

    after(async () => {
      for (const s of servers) if (s) await stopServerProcess(s);
      npm.closeAllConnections();
      await new Promise((resolve) => npm.close(resolve));
      upstream.closeAllConnections();
      await new Promise((resolve) => upstream.close(resolve));
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('runs each scheduled slot once across both instances', async () => {
      await eventually('ten slots of publish-posts have run', async () => {
        return (await rows('publish-posts')).filter((r) => r.status === 'ok').length >= 10;
      });
      const runs = await rows('publish-posts');
      const perSlot = new Map<string, number>();
      for (const r of runs) perSlot.set(r.slot, (perSlot.get(r.slot) ?? 0) + 1);
      assert.deepEqual(
        [...perSlot].filter(([, n]) => n > 1),
        [],
        'no slot ran twice',
      );
      assert.ok(runs.every((r) => r.attempt === 1 && r.trigger === 'schedule'));
    });

    it('runs each sync of the followed upstream once across both followers', async () => {
      await eventually(
        'five syncs have run',
        async () => (await rows('sync')).filter((r) => r.status === 'ok').length >= 5,
        40_000,
      );
      // Read while no sync runs: a run's job row, its kept sync and its request to the upstream are then all counted.
      let runs: RunRow[] = [];
      let syncs: { outcome: string; reason: string | null }[] = [];
      let asked = 0;
      await eventually('a moment between two syncs', async () => {
        runs = await rows('sync');
        asked = upstreamAsked.length;
        syncs = await queryPostgres(databaseUrl, 'SELECT outcome, reason FROM registry_syncs ORDER BY id');
        return runs.every((r) => r.status !== 'running') && (await rows('sync')).length === runs.length;
      });
      const perSlot = new Map<string, number>();
      for (const r of runs) perSlot.set(r.slot, (perSlot.get(r.slot) ?? 0) + 1);
      assert.deepEqual(
        [...perSlot].filter(([, n]) => n > 1),
        [],
        'no sync slot ran twice',
      );
      assert.ok(runs.every((r) => r.status === 'ok' && r.trigger === 'schedule'));
      // Each slot's run was one sync of the upstream: one page asked, one result kept, none refused because another
      // instance's sync of the same upstream finished first.
      assert.equal(syncs.length, runs.length);
      assert.deepEqual(
        syncs.filter((x) => x.outcome !== 'ok'),
        [],
      );
      assert.equal(asked, runs.length);
      // The server it lists is one pending submission, however many syncs read it.
      const pending = await queryPostgres<{ n: number }>(
        databaseUrl,
        `SELECT count(*)::int AS n FROM submission_servers WHERE name = 'io.example/followed-twice'`,
      );
      assert.equal(pending[0]!.n, 1);
    });

    it('retries on the other instance a run whose instance was killed mid-way', async () => {
      await eventually(
        'a versions run is under way, held by the registry',
        async () => held !== undefined && (await rows('versions')).some((r) => r.status === 'running'),
        40_000,
      );
      const [first] = await rows('versions');
      assert.equal(first!.attempt, 1);
      const pid = Number(first!.instance.split(':').at(-1));
      const victim = servers.findIndex((s) => s?.pid === pid);
      assert.ok(victim >= 0, `the run is on one of the instances (${first!.instance})`);
      servers[victim]!.kill('SIGKILL');
      await new Promise((resolve) => servers[victim]!.once('exit', resolve));
      servers[victim] = undefined;
      await eventually(
        'the other instance ran the slot again, to the end',
        async () => (await rows('versions')).some((r) => r.slot === first!.slot && r.status === 'ok'),
        // The dead run's heartbeat lapses after 10 s; the queue's backoff then waits 30 to 60 s.
        150_000,
      );
      const slot = (await rows('versions')).filter((r) => r.slot === first!.slot);
      assert.deepEqual(
        slot.map((r) => [r.attempt, r.status, r.trigger]),
        [
          [1, 'failed', 'schedule'],
          [2, 'ok', 'retry'],
        ],
      );
      assert.equal(slot[0]!.reason, 'interrupted: the process running it stopped before it finished');
      assert.notEqual(slot[1]!.instance, first!.instance);
      // The retry checked every record (the next slot, on the survivor meanwhile, may have taken the new version first).
      assert.match(slot[1]!.summary, /\d+ current/);
      // What the retry wrote is the site's: the record's new version, and its audit row naming the job.
      const survivor = 1 - victim;
      const [record] = await queryPostgres<{ doc: string; tool_slug: string }>(
        databaseUrl,
        `SELECT doc, tool_slug FROM mcp_servers WHERE doc LIKE $1`,
        `%"identifier":"${bumped}"%`,
      );
      assert.equal((JSON.parse(record!.doc) as { version: string }).version, '99.0.0');
      const audit = await queryPostgres<{ actor: string; summary: string }>(
        databaseUrl,
        `SELECT actor, summary FROM console_audit WHERE action = 'server.version'`,
      );
      assert.ok(audit.every((a) => a.actor === 'job:versions'));
      assert.ok(audit.some((a) => a.summary.endsWith(`-> 99.0.0 (${bumped})`)));
      const page = await fetch(`http://localhost:${ports[survivor]}/api/tools/${record!.tool_slug}`);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /99\.0\.0/);
    });
  },
);
