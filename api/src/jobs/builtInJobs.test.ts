/**
 * The built-in jobs against local registries served by the test: versions (npm's and PyPI's JSON APIs) and inspect
 * (the queue, with the inspector given). Runs on the test database (SQLite, or Postgres with TEST_DATABASE_URL).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ServerJson } from '@aitools/contracts/mcp';
import { openTestDatabase } from '../../test/testDatabase';
import type { DB } from '../db/connection';
import { dataVersion } from '../content/dataVersion';
import { listAudit } from '../content/audit';
import { createLogger } from '../middleware/logger';
import { upsertServer } from '../registry/repository';
import { runAttempt } from './execute';
import { versionsJob } from './versionsJob';
import { inspectJob, queueInspection, queuedInspections, type Inspector } from './inspectJob';
import { ANSWER_MAX_BYTES, npmPath } from './packageRegistries';
import { postsJob } from './postsJob';
import { siteJobs } from './siteJobs';
import { loadConfig } from '../config';
import { upsertPost } from '../blog/repository';

const logger = createLogger('silent');
/** What the local registry answers, by path. */
let answers: Record<string, { status?: number; body: string }> = {};
const asked: string[] = [];
let registry: Server;
let base = '';

beforeAll(async () => {
  registry = createServer((req, res) => {
    asked.push(req.url ?? '');
    const answer = answers[req.url ?? ''];
    if (!answer) return void res.writeHead(404).end('{"error":"Not found"}');
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' }).end(answer.body);
  });
  await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(registry.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => registry.close(() => resolve())));

let db: DB;
beforeEach(async () => {
  db = await openTestDatabase();
  answers = {};
  asked.length = 0;
});
afterEach(() => db.destroy());

async function listServer(slug: string, doc: ServerJson) {
  await db
    .insertInto('tools')
    .values({ slug, name: slug, doc: '{}', created_at: '2026-01-01T00:00:00.000Z' } as never)
    .execute();
  await upsertServer(db, { doc, toolSlug: slug, source: 'seed', updatedAt: '2026-01-01T00:00:00.000Z' });
}
const npmServer = (name: string, pkg: string, version: string): ServerJson => ({
  name,
  description: 'A server',
  version,
  packages: [{ registryType: 'npm', identifier: pkg, version, transport: { type: 'stdio' } }],
});
const recordOf = async (slug: string) => {
  const row = await db.selectFrom('mcp_servers').selectAll().where('tool_slug', '=', slug).executeTakeFirstOrThrow();
  return { ...row, doc: JSON.parse(row.doc) as ServerJson };
};
const run = (job = versionsJob({ npmRegistry: base, pypi: base })) =>
  runAttempt(job, { slot: 'now:test', attempt: 1, trigger: 'cli:test' }, { db, logger });

describe('the versions job', () => {
  it('takes a new npm release into the record, through the shared write path, and queues an inspection', async () => {
    await listServer('acme', npmServer('io.github.acme/acme', '@acme/mcp', '1.0.0'));
    await listServer('steady', npmServer('io.github.acme/steady', 'steady-mcp', '2.0.0'));
    answers[`/${npmPath('@acme/mcp')}/latest`] = { body: JSON.stringify({ name: '@acme/mcp', version: '1.1.0' }) };
    answers['/steady-mcp/latest'] = { body: JSON.stringify({ version: '2.0.0' }) };
    const before = await dataVersion(db);
    const result = await run();
    expect(asked).toContain('/@acme%2Fmcp/latest');
    expect(result).toMatchObject({ ok: true, counts: { updated: 1, 'inspections queued': 1, current: 1 } });
    expect(result.summary).toContain('acme 1.0.0 -> 1.1.0');
    const acme = await recordOf('acme');
    expect(acme.doc.version).toBe('1.1.0');
    expect(acme.doc.packages![0]!.version).toBe('1.1.0');
    // The database's own record now: the seed at the next start leaves it alone.
    expect(acme.source).toBe('import');
    expect(acme.updated_at > '2026-01-01T00:00:00.000Z').toBe(true);
    expect((await recordOf('steady')).doc.version).toBe('2.0.0');
    expect(await dataVersion(db)).toBe(before + 1);
    const purges = await db.selectFrom('edge_purges').select('key').execute();
    expect(purges.map((p) => p.key)).toContain('data');
    const { entries } = await listAudit(db, { actor: 'job:versions' });
    expect(entries.map((e) => [e.action, e.target, e.summary])).toEqual([
      ['server.version', 'server io.github.acme/acme', '1.0.0 -> 1.1.0 (@acme/mcp)'],
    ]);
    expect((await queuedInspections(db)).map((q) => [q.tool_slug, q.version])).toEqual([['acme', '1.1.0']]);
  });

  it('asks PyPI for a Python-only record and counts the ones it cannot check', async () => {
    await listServer('py', {
      name: 'io.github.acme/py',
      description: 'x',
      version: '0.1.0',
      packages: [{ registryType: 'pypi', identifier: 'acme-mcp', version: '0.1.0', transport: { type: 'stdio' } }],
    });
    await listServer('oci', {
      name: 'io.github.acme/oci',
      description: 'x',
      packages: [{ registryType: 'oci', identifier: 'ghcr.io/acme/mcp', transport: { type: 'stdio' } }],
    });
    await listServer('remote', {
      name: 'io.github.acme/remote',
      description: 'x',
      remotes: [{ type: 'streamable-http', url: 'https://mcp.acme.example/mcp' }],
    });
    answers['/pypi/acme-mcp/json'] = { body: JSON.stringify({ info: { version: '0.2.0' } }) };
    const result = await run();
    expect(result.counts).toEqual({
      updated: 1,
      'inspections queued': 1,
      'not checked (registry out of reach)': 1,
      'remote only': 1,
    });
    expect((await recordOf('py')).doc.version).toBe('0.2.0');
  });

  it('fails with each reason when a registry misbehaves, keeping those records and writing the others', async () => {
    await listServer('down', npmServer('io.github.acme/down', 'down-mcp', '1.0.0'));
    await listServer('huge', npmServer('io.github.acme/huge', 'huge-mcp', '1.0.0'));
    await listServer('junk', npmServer('io.github.acme/junk', 'junk-mcp', '1.0.0'));
    await listServer('range', npmServer('io.github.acme/range', 'range-mcp', '1.0.0'));
    await listServer('gone', npmServer('io.github.acme/gone', 'gone-mcp', '1.0.0'));
    await listServer('bidi', npmServer('io.github.acme/bidi', 'bidi-mcp', '1.0.0'));
    await listServer('fine', npmServer('io.github.acme/fine', 'fine-mcp', '1.0.0'));
    answers['/down-mcp/latest'] = { status: 500, body: '{}' };
    answers['/huge-mcp/latest'] = { body: JSON.stringify({ version: '9.9.9', pad: 'x'.repeat(ANSWER_MAX_BYTES) }) };
    answers['/junk-mcp/latest'] = { body: '<html>not json</html>' };
    answers['/range-mcp/latest'] = { body: JSON.stringify({ version: '^2.0.0' }) };
    // A version a terminal would show reversed: refused by the rules of every write, as an import would be.
    answers['/bidi-mcp/latest'] = { body: JSON.stringify({ version: '9.9.9\u202eexe.\u001b[2J' }) };
    answers['/fine-mcp/latest'] = { body: JSON.stringify({ version: '1.0.1' }) };
    const before = await dataVersion(db);
    const result = await run();
    expect(result.ok).toBe(false);
    expect(result.reason).toMatch(/^6 of 7 servers could not be checked \(they keep their version\): /);
    expect(result.reason).toContain('down: ');
    expect(result.reason).toContain('/down-mcp/latest answered 500');
    expect(result.reason).toContain(`huge: ${base}/huge-mcp/latest answered more than ${ANSWER_MAX_BYTES} bytes`);
    expect(result.reason).toContain('junk: ' + `${base}/junk-mcp/latest answered something that is not JSON`);
    expect(result.reason).toContain('range: npm range-mcp: a version the registry would refuse ("^2.0.0" is a range)');
    expect(result.reason).toContain('gone: ' + `${base}/gone-mcp/latest answered 404`);
    expect(result.reason).toContain("bidi: its registry's latest version is refused (version: contains");
    expect(result.reason).not.toContain('\u202e');
    for (const slug of ['down', 'huge', 'junk', 'range', 'gone', 'bidi'])
      expect((await recordOf(slug)).doc.version).toBe('1.0.0');
    expect((await recordOf('fine')).doc.version).toBe('1.0.1');
    expect(await dataVersion(db)).toBe(before + 1);
    const row = await db.selectFrom('job_runs').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'failed', reason: result.reason, job: 'versions' });
  });
});

describe('the inspect job', () => {
  it('inspects the queued servers, takes them off the queue, and keeps those the inspector refused', async () => {
    await listServer('one', npmServer('io.github.acme/one', 'one-mcp', '1.0.0'));
    await listServer('two', npmServer('io.github.acme/two', 'two-mcp', '1.0.0'));
    await queueInspection(db, 'one', '1.0.0', 'new version 1.0.0');
    await queueInspection(db, 'two', '1.0.0', 'new version 1.0.0');
    await queueInspection(db, 'unlisted', null, 'asked');
    const inspected: string[][] = [];
    const inspector: Inspector = async (_db, slugs, log) => {
      inspected.push(slugs);
      if (slugs[0] === 'two') throw new Error('Inspection refused: bubblewrap cannot run here');
      log(`${slugs[0]}: 3 tools`);
    };
    const result = await run(inspectJob(inspector));
    expect(inspected).toEqual([['one'], ['two']]);
    expect(result).toMatchObject({
      ok: false,
      reason:
        '1 of 3 servers could not be inspected (they stay queued and keep their last inspection): two: Inspection refused: bubblewrap cannot run here',
      counts: { inspected: 1, 'dropped (no longer listed)': 1 },
    });
    expect(result.summary).toContain('one: 3 tools');
    expect((await queuedInspections(db)).map((q) => q.tool_slug)).toEqual(['two']);
    // The next run takes what is still waiting.
    const again = await run(inspectJob(async () => {}));
    expect(again).toMatchObject({ ok: true, counts: { inspected: 1 } });
    expect(await queuedInspections(db)).toEqual([]);
  });
});

describe("the site's inspect job", () => {
  it('refuses to run packages unattended where the sandbox cannot run, keeping the servers queued', async () => {
    await listServer('one', npmServer('io.github.acme/one', 'one-mcp', '1.0.0'));
    await queueInspection(db, 'one', '1.0.0', 'new version 1.0.0');
    const config = loadConfig({ INSPECT_BWRAP: '/nonexistent/bwrap' });
    const job = siteJobs({ config, logger }).find((j) => j.name === 'inspect')!;
    const result = await run(job);
    expect(result.ok).toBe(false);
    expect(result.reason).toContain(
      'one: Inspection refused: packages run only inside a bubblewrap sandbox, and bubblewrap is not installed',
    );
    expect((await queuedInspections(db)).map((q) => q.tool_slug)).toEqual(['one']);
  });
});

describe('the publish-posts job', () => {
  it('publishes the posts whose time came, audited as the job, and says which', async () => {
    await upsertPost(db, {
      slug: 'due',
      title: 'Due',
      status: 'scheduled',
      published_at: '2026-01-01T00:00:00.000Z',
      content: 'x',
    });
    await upsertPost(db, {
      slug: 'later',
      title: 'Later',
      status: 'scheduled',
      published_at: '2999-01-01T00:00:00.000Z',
      content: 'x',
    });
    const result = await run(postsJob(15_000));
    expect(result).toMatchObject({ ok: true, counts: { published: 1 }, summary: '1 published: due' });
    const { entries } = await listAudit(db, { actor: 'job:publish-posts' });
    expect(entries.map((e) => [e.action, e.target])).toEqual([['post.publish', 'post due']]);
    expect(await run(postsJob(15_000))).toMatchObject({ ok: true, summary: 'nothing changed' });
  });
});
