/**
 * A first sync of 20,000 records from an upstream instance (docs/mcp.md, "Following upstream registries"), pages of
 * 100, on Postgres: two production servers on one throwaway cluster (a schema each). The follower's `sync` job runs
 * it; the figures are its time, the follower's memory peak (VmHWM) and a page's throughput on the follower while it
 * runs against the same page's idle figure. Figures only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SERVER_SCHEMA_URL } from '../../contracts/src/mcp';
import { openDatabase, refreshPlannerStatistics } from '../../api/src/db/connection';
import { addUpstream } from '../../api/src/registry/upstreams';
import { testDatabaseLocation } from '../../api/test/testDatabase';
import { REPO_ROOT, startSite, type Site } from '../e2e/harness';
import { buildCatalogueDatabase, SYNTHETIC_SLUG_PREFIX } from './catalogue';
import { fig, type Row } from './table';
import { throughput, type Throughput } from './throughput';

const RECORDS = Number(process.env.SYNC_RECORDS ?? 20_000);
const PAGE = '/tool/filesystem-mcp-server';
const SECONDS = 10;
const PERIOD_MS = 5000;
/** The seed's tools, beside which the catalogue's synthetic ones are made. */
const SEEDED_TOOLS = 156;

interface Postgres {
  url: string;
  stop: () => Promise<void>;
}

/** The upstream's catalogue: the seed and synthetic tools (catalogue.ts), RECORDS of them with a server.json record. */
export async function fillUpstream(location: string): Promise<void> {
  const db = await buildCatalogueDatabase(location, RECORDS + SEEDED_TOOLS);
  try {
    const slugs = (
      await db
        .selectFrom('tools')
        .select('slug')
        .where('slug', 'like', `${SYNTHETIC_SLUG_PREFIX}%`)
        .orderBy('slug')
        .limit(RECORDS)
        .execute()
    ).map((r) => r.slug);
    const now = new Date().toISOString();
    const name = (i: number) => `io.example.bench/sync-${String(i).padStart(5, '0')}`;
    for (let start = 0; start < slugs.length; start += 500)
      await db
        .insertInto('mcp_servers')
        .values(
          slugs.slice(start, start + 500).map((slug, j) => ({
            name: name(start + j),
            tool_slug: slug,
            source: 'import' as const,
            updated_at: now,
            doc: JSON.stringify({
              $schema: SERVER_SCHEMA_URL,
              name: name(start + j),
              title: `Bench Sync ${start + j}`,
              description: 'A server of the sync benchmark: forecasts, files and notes for the places a visitor names.',
              version: '1.0.0',
              repository: { url: `https://github.com/example/${slug}`, source: 'github' },
              packages: [
                {
                  registryType: 'npm',
                  identifier: `@example/${slug}`,
                  version: '1.0.0',
                  transport: { type: 'stdio' },
                  environmentVariables: [{ name: 'API_KEY', description: 'The key', isSecret: true, isRequired: true }],
                },
              ],
            }),
          })),
        )
        .execute();
    // The planner's statistics, as after any bulk load (autovacuum would take them a minute later): without them it
    // guesses a handful of listed tools and answers each /v0.1 page by joining and sorting the whole table.
    await refreshPlannerStatistics(db);
  } finally {
    await db.destroy();
  }
}

/** The process's peak resident memory so far (VmHWM), in MB. */
function peakMb(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

async function until<T>(what: string, check: () => Promise<T | undefined>, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`sync bench: ${what} did not happen within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function syncRows(log: (line: string) => void): Promise<Row[]> {
  const script = pathToFileURL(join(REPO_ROOT, 'scripts', 'postgres.mjs')).href;
  const { startPostgres } = (await import(script)) as { startPostgres: () => Promise<Postgres | null> };
  const pg = await startPostgres();
  if (!pg) {
    log('sync: no PostgreSQL server installed; its rows are left out');
    return [];
  }
  process.env.TEST_DATABASE_URL = pg.url;
  let upstream: Site | undefined;
  let follower: Site | undefined;
  try {
    const upstreamUrl = await testDatabaseLocation();
    const followerUrl = await testDatabaseLocation();
    log(`sync: ${RECORDS.toLocaleString('en-US')} records on the upstream's database`);
    await fillUpstream(upstreamUrl);
    upstream = await startSite({
      releaseAll: false,
      quiet: true,
      extraEnv: { DATABASE_URL: upstreamUrl, JOBS: 'off' },
    });
    follower = await startSite({
      quiet: true,
      // The upstream is on this machine: the SSRF guard reaches it only where the allow-list names it.
      extraEnv: {
        DATABASE_URL: followerUrl,
        JOB_SYNC_EVERY: String(PERIOD_MS),
        OUTBOUND_ALLOW: new URL(upstream.baseUrl).hostname,
      },
    });
    const url = follower.baseUrl + PAGE;
    log(`sync: the follower's ${PAGE}, idle`);
    const idle = await throughput(url, SECONDS, follower.pid);
    const idlePeak = peakMb(follower.pid);

    const db = await openDatabase(followerUrl);
    try {
      const pages = Math.ceil((RECORDS + 100) / 100) + 5;
      const { id } = await addUpstream(db, { url: upstream.baseUrl, policy: 'submissions', pagesPerRun: pages });
      log('sync: waiting for the sync job to start');
      const run = () =>
        db.selectFrom('registry_syncs').selectAll().where('upstream_id', '=', id).orderBy('id').executeTakeFirst();
      await until(
        'the sync job',
        async () =>
          (await db
            .selectFrom('job_runs')
            .select('id')
            .where('job', '=', 'sync')
            .where('status', '=', 'running')
            .executeTakeFirst()) ?? ((await run()) ? { id: 0 } : undefined),
        PERIOD_MS * 4,
      );
      // Back-to-back windows for as long as the sync runs (a window it ended in is partly idle: left out, unless
      // it is the only one), then the idle figure again: the machine is shared, so the ratio is taken against the
      // mean of the idle figures before and after.
      log(`sync: the follower's ${PAGE} while the sync runs, ${SECONDS} s at a time`);
      const during: Throughput[] = [];
      let finished: Awaited<ReturnType<typeof run>>;
      for (const end = Date.now() + 600_000; ;) {
        const window = await throughput(url, SECONDS, follower.pid);
        finished = await run();
        if (!finished || !during.length) during.push(window);
        if (finished || Date.now() > end) break;
      }
      const overlapped = during.length > 1 || !finished;
      const done = finished ?? (await until('the sync to finish', () => run().then((r) => r ?? undefined), 600_000));
      const counts = JSON.parse(done.counts) as Record<string, number>;
      const seconds = (Date.parse(done.finished_at) - Date.parse(done.started_at)) / 1000;
      const peak = peakMb(follower.pid);
      log(`sync: the follower's ${PAGE}, idle again`);
      const idleAfter = await throughput(url, SECONDS, follower.pid);
      const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
      const duringRps = mean(during.map((w) => w.rps));
      const idleRps = mean([idle.rps, idleAfter.rps]);
      const ratio = duringRps / idleRps;
      const cpu = (t: Throughput[]) => mean(t.map((w) => w.cpuMicros ?? NaN));
      const duringCpu = cpu(during);
      const idleCpu = cpu([idle, idleAfter]);
      return [
        {
          section: 'sync',
          what: `first sync of ${RECORDS.toLocaleString('en-US')} records from an upstream instance (pages of 100), Postgres: time`,
          cells: {
            current: fig(
              done.outcome === 'ok'
                ? `${seconds.toFixed(1)} s · ${counts.pages} pages, ${counts.records} records, ${counts.added} added as submissions`
                : `refused: ${done.reason}`,
              { seconds, counts },
            ),
          },
        },
        {
          section: 'sync',
          what: "the follower's memory peak (VmHWM): idle, then after the sync",
          cells: { current: fig(`${idlePeak.toFixed(0)} MB → ${peak.toFixed(0)} MB`, { idlePeak, peak }) },
        },
        {
          section: 'sync',
          what: `the follower's ${PAGE} while the sync runs, against idle before and after (${SECONDS} s windows)`,
          cells: {
            current: fig(
              `${Math.round(duringRps)} rps (${during.length} windows, ${during.map((w) => Math.round(w.rps)).join('/')}) against ` +
                `${Math.round(idleRps)} idle (${Math.round(idle.rps)} before, ${Math.round(idleAfter.rps)} after) = ${ratio.toFixed(2)} · ` +
                `the follower's CPU per answer ${Math.round(duringCpu)} µs against ${Math.round(idleCpu)} µs idle` +
                `${overlapped ? '' : ' (the sync ended before the measure did)'}`,
              { idle, idleAfter, during, ratio, duringCpu, idleCpu },
            ),
          },
        },
      ];
    } finally {
      await db.destroy();
    }
  } finally {
    await follower?.stop();
    await upstream?.stop();
    await pg.stop();
  }
}
