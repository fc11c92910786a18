import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ServerJson } from '@aitools/contracts/mcp';
import type { DB } from '../db/connection';
import { openTestDatabase } from '../../test/testDatabase';
import { startRemoteMcp, type RemoteMcp } from '../../test/remoteMcpServer';
import { createLogger } from '../middleware/logger';
import { loadConfig } from '../config';
import { seed } from '../seed';
import { getInspection } from '../registry/inspections';
import { healthFacts } from '../checks/health';
import { DATA_KEY } from '../edge/headers';
import { createJobRunner, type JobRunner } from './runner';
import { listRuns } from './runs';
import { listAudit } from '../content/audit';
import { healthJob, remoteInspectJob } from './remoteJobs';

let db: DB;
let remote: RemoteMcp;
let runner: JobRunner;
const SLUG = 'linear-mcp-server';

beforeAll(async () => {
  db = await openTestDatabase();
  await seed(db);
  remote = await startRemoteMcp();
  // Only Linear's remote points at the test's server; every other remote at an address the guard refuses, so a
  // run never reaches the network outside.
  const rows = await db.selectFrom('mcp_servers').select(['tool_slug', 'doc']).execute();
  for (const row of rows) {
    const doc = JSON.parse(row.doc) as ServerJson;
    if (!doc.remotes?.length) continue;
    const url = row.tool_slug === SLUG ? remote.url : 'http://0.0.0.0:9/mcp';
    doc.remotes = [{ type: 'streamable-http', url }];
    await db
      .updateTable('mcp_servers')
      .set({ doc: JSON.stringify(doc) })
      .where('tool_slug', '=', row.tool_slug)
      .execute();
  }
  const config = loadConfig({ OUTBOUND_ALLOW: '127.0.0.1', OUTBOUND_TIMEOUT_MS: '5000' });
  const logger = createLogger('silent');
  runner = createJobRunner({ db, jobs: [healthJob({ config }), remoteInspectJob({ config })], logger });
});

afterAll(async () => {
  await runner.stop();
  await remote.close();
  await db.destroy();
});

const finished = async (job: string) => {
  await vi.waitFor(
    async () => {
      const [run] = await listRuns(db, { job });
      if (!run?.finishedAt) throw new Error('still running');
    },
    { timeout: 30_000, interval: 50 },
  );
  return (await listRuns(db, { job }))[0]!;
};

/** The data version, and how many times the shared caches' data pages were queued for a purge. */
const dataBumps = async () => ({
  version: Number((await db.selectFrom('data_version').select('version').executeTakeFirstOrThrow()).version),
  purges: Number(
    (await db.selectFrom('edge_purges').select('generation').where('key', '=', DATA_KEY).executeTakeFirst())
      ?.generation ?? 0,
  ),
});

describe('the remote servers jobs', () => {
  it('inspect asks the remote-only servers over their transport and writes their inspections', async () => {
    await runner.runNow('inspect-remotes', 'cli:test');
    const run = await finished('inspect-remotes');
    expect(run.status).toBe('ok');
    expect(run.counts.inspected).toBe(1);
    const inspection = await getInspection(db, SLUG);
    expect(inspection?.status === 'inspected' && inspection.tools.map((t) => t.name)).toEqual(['echo']);
    // Each changed inspection is an audit row of the job.
    const { entries } = await listAudit(db);
    expect(entries.find((a) => a.target === `server ${SLUG}`)).toMatchObject({
      actor: 'job:inspect-remotes',
      action: 'inspection.update',
      summary: `${SLUG}: 1 tools, 0 prompts, 0 resources`,
    });
  });

  it('health checks every remote server and keeps each result, the refused ones with the reason', async () => {
    const bumpsBefore = await dataBumps();
    await runner.runNow('health', 'cli:test');
    const run = await finished('health');
    expect(run.status).toBe('ok');
    expect(run.counts.healthy).toBe(1);
    expect(run.counts.unreachable).toBeGreaterThan(0);
    // Every server's check is kept, in one public write: one data version bump and one purge for the whole run.
    expect(await db.selectFrom('health_checks').select('tool_slug').execute()).toHaveLength(
      run.counts.healthy! + run.counts.unreachable!,
    );
    expect(await dataBumps()).toEqual({ version: bumpsBefore.version + 1, purges: bumpsBefore.purges + 1 });
    expect((await healthFacts(db, SLUG))?.last.status).toBe('healthy');
    expect((await healthFacts(db, 'figma-mcp-server'))?.last).toMatchObject({
      status: 'unreachable',
      detail: 'refused: 0.0.0.0 is an unspecified address (not on the allow-list)',
    });
  });
});
