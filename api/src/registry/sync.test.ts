import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { META_KEY, OFFICIAL_META_KEY, SERVER_SCHEMA_URL } from '@aitools/contracts/mcp';
import type { DB } from '../db/connection';
import { listAudit } from '../content/audit';
import { approveSubmission } from '../moderation/service';
import { seed } from '../seed';
import { openTestDatabase } from '../../test/testDatabase';
import { getServerRow } from './repository';
import { Pace, syncUpstream, syncUpstreams, SYNC_SHARE, type PaceClock, type SyncOptions } from './sync';
import { addUpstream, findUpstream, type UpstreamInput } from './upstreams';

/** The upstream: a local HTTP server whose answer to each request the test sets. */
type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => unknown;
let handler: Handler;
const asked: URL[] = [];
let upstream: Server;
let base: string;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const url = new URL(req.url!, base);
    asked.push(url);
    void handler(req, res, url);
  });
  upstream.listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(() => {
  upstream.closeAllConnections();
  upstream.close();
});

const KNOWN = 'io.github.modelcontextprotocol/server-filesystem';
const doc = (name: string, version = '1.0.0', extra: object = {}) => ({
  $schema: SERVER_SCHEMA_URL,
  name,
  description: `The ${name} server.`,
  version,
  ...extra,
});
const entry = (server: object, meta: object = {}) => ({
  server,
  _meta: { [OFFICIAL_META_KEY]: { status: 'active', updatedAt: '2026-11-20T10:00:00Z', ...meta } },
});
const sendJson = (res: ServerResponse, body: unknown, status = 200) =>
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
/** Pages served by cursor: page i's nextCursor is `c<i+1>`. */
const pages =
  (...list: unknown[][]): Handler =>
  (_req, res, url) => {
    const i = url.searchParams.get('cursor') ? Number(url.searchParams.get('cursor')!.slice(1)) : 0;
    sendJson(res, {
      servers: list[i] ?? [],
      metadata: { count: (list[i] ?? []).length, ...(i + 1 < list.length ? { nextCursor: `c${i + 1}` } : {}) },
    });
  };

// A whole answer's time is only short where an upstream never finishes one (there, whatever the machine's load, the
// answer is the same).
// The upstream is this machine's: the allow-list names it, as OUTBOUND_ALLOW does for the e2e sites.
const LIMITS = { timeoutMs: 30_000, maxBytes: 256 * 1024, allow: ['127.0.0.1'] };
const NEVER_FINISHES = 300;
const opts: SyncOptions = { limits: LIMITS };
let db: DB;
let upstreamId: number;
const follow = async (input: Partial<UpstreamInput> = {}) =>
  (await addUpstream(db, { url: base, policy: 'submissions', pagesPerRun: 10, ...input })).id;

beforeEach(async () => {
  asked.length = 0;
  db = await openTestDatabase();
  await seed(db);
  upstreamId = await follow();
});

/** Everything a sync may change: the records, submissions, tools' visibility, data version and the upstream's mark. */
async function snapshot() {
  return {
    servers: await db.selectFrom('mcp_servers').selectAll().orderBy('name').execute(),
    submissions: await db.selectFrom('submissions').selectAll().orderBy('id').execute(),
    attached: await db.selectFrom('submission_servers').selectAll().orderBy('submission_id').execute(),
    hidden: await db.selectFrom('tools').select(['slug', 'hidden_at']).orderBy('slug').execute(),
    version: await db.selectFrom('data_version').selectAll().execute(),
    marks: await db.selectFrom('registry_upstreams').select(['since', 'resume_cursor', 'resume_mark']).execute(),
  };
}

describe('a sync of a well-behaved upstream', () => {
  it('follows a redirect to an address the guard allows (checked again there)', async () => {
    const served = pages([entry(doc('io.example/moved'))]);
    handler = (req, res, url) =>
      url.pathname.startsWith('/moved/')
        ? served(req, res, url)
        : res.writeHead(301, { Location: `/moved${url.pathname}${url.search}` }).end();
    const [result] = await syncUpstreams(db, opts);
    expect(result).toMatchObject({ outcome: 'ok', counts: { pages: 1, added: 1 } });
    expect(asked.map((u) => u.pathname)).toEqual(['/v0.1/servers', '/moved/v0.1/servers']);
  });

  it('updates the servers we list, makes new ones pending submissions, reads every page and keeps the result', async () => {
    const before = await getServerRow(db, KNOWN);
    const versionBefore = (await snapshot()).version[0]!.version;
    handler = pages(
      [entry(doc('io.example/new-one')), entry(doc(KNOWN, '9.9.9'), { updatedAt: '2026-11-21T08:00:00Z' })],
      [entry(doc('io.example/new-two'))],
    );
    const [result] = await syncUpstreams(db, opts);
    expect(result).toMatchObject({
      outcome: 'ok',
      reason: null,
      more: false,
      counts: { pages: 2, records: 3, added: 2, updated: 1, listed: 0, deleted: 0 },
    });
    expect(JSON.parse((await getServerRow(db, KNOWN))!.doc).version).toBe('9.9.9');
    expect((await getServerRow(db, KNOWN))!.tool_slug).toBe(before!.tool_slug);
    const pending = await db
      .selectFrom('submissions as s')
      .innerJoin('submission_servers as ss', 'ss.submission_id', 's.id')
      .select(['ss.name', 's.status', 's.message'])
      .orderBy('ss.name')
      .execute();
    expect(pending).toEqual([
      { name: 'io.example/new-one', status: 'pending', message: `Followed from ${base}: io.example/new-one 1.0.0` },
      { name: 'io.example/new-two', status: 'pending', message: `Followed from ${base}: io.example/new-two 1.0.0` },
    ]);
    // The change is public data: the version moved (caches and other instances see it).
    expect((await snapshot()).version[0]!.version).toBeGreaterThan(versionBefore);
    // Asked for the latest versions, a page at a time, following the cursor.
    expect(asked.map((u) => [u.pathname, u.searchParams.get('cursor'), u.searchParams.get('limit')])).toEqual([
      ['/v0.1/servers', null, '100'],
      ['/v0.1/servers', 'c1', '100'],
    ]);
    expect(asked[0]!.searchParams.get('version')).toBe('latest');
    expect(asked[0]!.searchParams.has('updated_since')).toBe(false);
    // The kept result, the mark for next time, and the audit row by job:sync.
    const kept = await findUpstream(db, upstreamId);
    expect(kept.since).toBe('2026-11-21T08:00:00.000Z');
    expect(kept.lastSync).toMatchObject({ outcome: 'ok', counts: { added: 2, updated: 1 } });
    const { entries } = await listAudit(db, { actor: 'job:sync' });
    expect(entries[0]).toMatchObject({ action: 'registry.sync', target: base, outcome: 'ok' });
    expect(entries[0]!.summary).toContain('2 added as submissions');
  });

  it('reads only what changed since the last good sync, and a repeat changes nothing', async () => {
    handler = pages([entry(doc('io.example/new-one'))]);
    await syncUpstreams(db, opts);
    asked.length = 0;
    const after = await snapshot();
    const [again] = await syncUpstreams(db, opts);
    expect(asked[0]!.searchParams.get('updated_since')).toBe('2026-11-20T10:00:00.000Z');
    // The same record again (an upstream whose clock repeats): its submission is rewritten with the same document.
    expect(again).toMatchObject({ outcome: 'ok', counts: { added: 0, updated: 1 } });
    expect(await snapshot()).toEqual(after);
  });

  it('never moves its mark past now: a change dated in the future would leave every later run asking for nothing', async () => {
    handler = pages([entry(doc('io.example/future-dated'), { updatedAt: '9999-12-31T23:59:59Z' })]);
    const [first] = await syncUpstreams(db, opts);
    expect(first).toMatchObject({ outcome: 'ok', counts: { added: 1 } });
    const { since } = await findUpstream(db, upstreamId);
    expect(since! <= new Date().toISOString()).toBe(true);
    // A real change made since is read by the next run.
    handler = pages([entry(doc('io.example/later'), { updatedAt: new Date().toISOString() })]);
    expect((await syncUpstreams(db, opts))[0]).toMatchObject({ outcome: 'ok', counts: { added: 1 } });
  });

  it('reads no more than the pages per run, and the next run goes on from the cursor where it stopped', async () => {
    await db.updateTable('registry_upstreams').set({ pages_per_run: 1 }).execute();
    handler = pages(
      [entry(doc('io.example/a'), { updatedAt: '2026-11-22T00:00:00Z' })],
      [entry(doc('io.example/b'), { updatedAt: '2026-11-21T00:00:00Z' })],
    );
    const [first] = await syncUpstreams(db, opts);
    expect(first).toMatchObject({ outcome: 'ok', more: true, counts: { pages: 1, added: 1 } });
    expect(await findUpstream(db, upstreamId)).toMatchObject({
      since: null,
      resumeCursor: 'c1',
      resumeMark: '2026-11-22T00:00:00.000Z',
    });
    const [second] = await syncUpstreams(db, opts);
    expect(second).toMatchObject({ outcome: 'ok', more: false, counts: { pages: 1, added: 1 } });
    expect(asked.map((u) => u.searchParams.get('cursor'))).toEqual([null, 'c1']);
    // The mark is the newest change of the whole chain of runs.
    expect(await findUpstream(db, upstreamId)).toMatchObject({
      since: '2026-11-22T00:00:00.000Z',
      resumeCursor: null,
      resumeMark: null,
    });
  });

  it('applies a page in the same few statements whatever its number of records', async () => {
    let statements = 0;
    const counting = db.withPlugin({
      transformQuery: (args) => (statements++, args.node),
      transformResult: (args) => Promise.resolve(args.result),
    });
    const statementsFor = async (count: number, prefix: string) => {
      const names = Array.from({ length: count }, (_, i) => `io.example/${prefix}-${i}`);
      // New servers, and as many updated known ones (each run updates the same records with a new version).
      handler = pages([...names.map((n) => entry(doc(n))), entry(doc(KNOWN, `${count}.0.0`))]);
      await db.updateTable('registry_upstreams').set({ since: null }).execute();
      statements = 0;
      const result = await syncUpstream(counting, await findUpstream(db, upstreamId), opts);
      expect(result).toMatchObject({ outcome: 'ok', counts: { added: count, updated: 1 } });
      return statements;
    };
    const few = await statementsFor(3, 'few');
    expect(few).toBeGreaterThan(5);
    expect(await statementsFor(80, 'many')).toBe(few);
  });

  it('honours status: a deleted server leaves our lists, a deprecated new one is not brought in', async () => {
    const { tool_slug } = (await getServerRow(db, KNOWN))!;
    handler = pages([
      entry(doc(KNOWN), { status: 'deleted' }),
      entry(doc('io.example/old'), { status: 'deprecated' }),
      entry(doc('io.example/gone'), { status: 'deleted' }),
    ]);
    const [result] = await syncUpstreams(db, opts);
    expect(result).toMatchObject({ outcome: 'ok', counts: { deleted: 1, skipped: 2, added: 0 } });
    const tool = await db.selectFrom('tools').select('hidden_at').where('slug', '=', tool_slug).executeTakeFirst();
    expect(tool!.hidden_at).not.toBeNull();
    expect(await db.selectFrom('submissions').select('id').execute()).toEqual([]);
  });

  it('rejects the pending submission of a server deleted upstream', async () => {
    handler = pages([entry(doc('io.example/brief'))]);
    await syncUpstreams(db, opts);
    handler = pages([entry(doc('io.example/brief'), { status: 'deleted', updatedAt: '2026-11-23T00:00:00Z' })]);
    const [result] = await syncUpstreams(db, opts);
    expect(result).toMatchObject({ outcome: 'ok', counts: { deleted: 1 } });
    expect(await db.selectFrom('submissions').select('status').execute()).toEqual([{ status: 'rejected' }]);
  });

  it('reads a copy of this site upstream by its own listing key', async () => {
    handler = pages([
      {
        server: doc('io.example/ours'),
        _meta: { [META_KEY]: { status: 'active', updatedAt: '2026-11-24T00:00:00Z' } },
      },
    ]);
    const [result] = await syncUpstreams(db, opts);
    expect(result).toMatchObject({ outcome: 'ok', counts: { added: 1 } });
    expect((await findUpstream(db, upstreamId)).since).toBe('2026-11-24T00:00:00.000Z');
  });

  it('leaves the names of our own namespace alone (a copy of this site upstream lists its own server, not ours)', async () => {
    const own = await getServerRow(db, 'io.aitoolsdirectory/directory');
    handler = pages([entry(doc('io.aitoolsdirectory/directory', '9.0.0')), entry(doc('io.aitoolsdirectory/other'))]);
    const [result] = await syncUpstreams(db, opts);
    expect(result).toMatchObject({ outcome: 'ok', counts: { skipped: 2, updated: 0, added: 0 } });
    expect(await getServerRow(db, 'io.aitoolsdirectory/directory')).toEqual(own);
  });

  it("lists new servers at once where the policy says so, through the moderators' approval", async () => {
    await db.updateTable('registry_upstreams').set({ policy: 'list' }).execute();
    handler = pages([entry(doc('io.example/listed', '2.0.0', { title: 'Listed' }))]);
    const [result] = await syncUpstreams(db, { ...opts, listNew: (trx, id) => approveSubmission(trx, id) });
    expect(result).toMatchObject({ outcome: 'ok', counts: { listed: 1, added: 0 } });
    const row = await getServerRow(db, 'io.example/listed');
    expect(row?.tool_slug).toBe('listed');
    expect(await db.selectFrom('submissions').select('status').execute()).toEqual([{ status: 'approved' }]);
  });

  it('syncs only the upstream named by id or address, and names one that is not followed', async () => {
    const other = await follow({ url: `${base}/other` });
    handler = pages([]);
    expect((await syncUpstreams(db, opts, String(other))).map((r) => r.upstream)).toEqual([`${base}/other`]);
    expect((await syncUpstreams(db, opts, `${base}/v0.1/servers`)).map((r) => r.upstream)).toEqual([base]);
    await expect(syncUpstreams(db, opts, 'https://nowhere.example')).rejects.toThrow(
      'No upstream is https://nowhere.example.',
    );
  });
});

/** Writes `total` bytes of a JSON-looking answer as fast as the client reads; counts what it managed to send. */
function flood(total: number, sent: { bytes: number }): Handler {
  return async (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    res.write('{"servers":[');
    while (sent.bytes < total && !res.destroyed) {
      sent.bytes += chunk.length;
      if (!res.write(chunk))
        await new Promise<void>((resolve) => {
          const go = () => {
            res.off('drain', go).off('close', go);
            resolve();
          };
          res.on('drain', go).on('close', go);
        });
    }
    res.end();
  };
}

/** A clock that moves only when read (each step of work "takes" `stepMs`: read at its start and its end) or slept
 *  on: what a pace does is then the same on any machine. */
function testClock(stepMs: number) {
  let now = 0;
  let reads = 0;
  const slept: number[] = [];
  const clock: PaceClock = {
    now: () => (reads++ % 2 === 0 ? now : (now += stepMs)),
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
  return { clock, slept, elapsed: () => now };
}

describe('a polite sync: its work stays under a share of the time', () => {
  it('a pace rests before each step as long as the last one earned, so work is at most its share of the time', async () => {
    const { clock, slept, elapsed } = testClock(40);
    const pace = new Pace(0.1, clock);
    for (let i = 0; i < 5; i++) expect(await pace.step(async () => i)).toBe(i);
    // Nine times each 40 ms step, before every step but the first (none is owed after the last).
    expect(slept).toEqual([360, 360, 360, 360].map((ms) => expect.closeTo(ms, 6)));
    expect((5 * 40) / elapsed()).toBeLessThanOrEqual(0.1 + 0.1 / 4);
    expect(() => new Pace(0)).toThrow(/above 0 and at most 1/);
    expect(() => new Pace(1.5)).toThrow(/above 0 and at most 1/);
  });

  it('a stop during a rest ends the run at the next step, not after its rest', async () => {
    const stop = new AbortController();
    const { clock } = testClock(10);
    const pace = new Pace(0.5, {
      now: clock.now,
      sleep: async (_ms, signal) => {
        expect(signal).toBe(stop.signal);
        stop.abort();
      },
    });
    let steps = 0;
    const work = async () => steps++;
    await pace.step(work, stop.signal);
    await expect(pace.step(work, stop.signal)).rejects.toThrow(/stopped before its end/);
    expect(steps).toBe(1);
  });

  it("a run reads and applies its pages with the site's share of rest between them (SYNC_SHARE)", async () => {
    handler = pages([entry(doc('io.example/a'))], [entry(doc('io.example/b'))], [entry(doc('io.example/c'))]);
    const { clock, slept, elapsed } = testClock(25);
    const [result] = await syncUpstreams(db, { ...opts, share: SYNC_SHARE, clock });
    expect(result).toMatchObject({ outcome: 'ok', counts: { pages: 3, added: 3 } });
    // Three pages read and three applied: six steps of 25 ms, a rest of nine times that before each but the first.
    expect(slept).toEqual(Array(5).fill(expect.closeTo(225, 6)));
    expect((6 * 25) / elapsed()).toBeLessThanOrEqual(SYNC_SHARE * 1.2);
  });

  it('a run stopped between the pages it applies keeps those applied, and the next run goes on after them', async () => {
    handler = pages([entry(doc('io.example/a'))], [entry(doc('io.example/b'))]);
    const stop = new AbortController();
    const { clock, slept } = testClock(10);
    const owing: PaceClock = {
      now: clock.now,
      // Two pages read and the first applied: the job's time ends during the rest before the second.
      sleep: async (ms) => {
        await clock.sleep(ms);
        if (slept.length === 3) stop.abort();
      },
    };
    const [result] = await syncUpstreams(db, { ...opts, share: 0.5, clock: owing, signal: stop.signal });
    expect(result!.outcome).toBe('refused');
    expect(result!.reason).toBe(
      'stopped before its end (the job ran out of time, or the site is stopping) (on applying page 2; the 1 before it were applied, and the next run goes on from there)',
    );
    expect(result!.counts).toMatchObject({ pages: 2, added: 1 });
    const names = async () =>
      (await db.selectFrom('submission_servers').select('name').orderBy('name').execute()).map((r) => r.name);
    expect(await names()).toEqual(['io.example/a']);
    expect(await findUpstream(db, upstreamId)).toMatchObject({ since: null, resumeCursor: 'c1' });
    asked.length = 0;
    const [next] = await syncUpstreams(db, opts);
    expect(next).toMatchObject({ outcome: 'ok', counts: { pages: 1, added: 1 } });
    expect(asked.map((u) => u.searchParams.get('cursor'))).toEqual(['c1']);
    expect(await names()).toEqual(['io.example/a', 'io.example/b']);
  });
});

describe('a hostile or broken upstream is refused with the reason, and changes nothing', () => {
  const sent = { bytes: 0 };
  const valid = [entry(doc('io.example/new-one')), entry(doc(KNOWN, '9.9.9'))];
  /** A page whose third record's `_meta` nests `depth` levels (written out: too deep for JSON.stringify). */
  const nested = (depth: number) => (_req: IncomingMessage, res: ServerResponse) => {
    const page = JSON.stringify({ servers: [...valid, entry({ ...doc('io.example/deep'), _meta: 'DEEP' })] });
    const deep = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(page.replace('"DEEP"', deep));
  };
  const HOSTILE: [string, () => Handler, RegExp][] = [
    ['a 500', () => (_req, res) => sendJson(res, { error: 'boom' }, 500), /^\/v0\.1\/servers answered 500$/],
    [
      'a record nested 20,000 levels deep',
      () => nested(20_000),
      /^page 1 has 1 invalid record: servers\[2\]: _meta\.(a\.){10}a: nests more than 12 levels deep$/,
    ],
    [
      'a record with a text of 100,000 characters',
      () => pages([...valid, entry({ ...doc('io.example/long'), _meta: { note: 'x'.repeat(100_000) } })]),
      /^page 1 has 1 invalid record: servers\[2\]: _meta\.note: must be 4000 characters or less$/,
    ],
    [
      'a record with a key of 100,000 characters (the reason stays short)',
      () => pages([...valid, entry({ ...doc('io.example/key'), _meta: { ['k'.repeat(100_000) + '\u202e']: 1 } })]),
      /^page 1 has 1 invalid record: servers\[2\]: _meta\.k{40}…: key must be 200 characters or less$/,
    ],
    [
      'a record of 120,000 characters of text in all',
      () =>
        pages([
          ...valid,
          entry({
            ...doc('io.example/big'),
            _meta: Object.fromEntries([...Array(40)].map((_, i) => [`n${i}`, 'x'.repeat(3000)])),
          }),
        ]),
      /^page 1 has 1 invalid record: servers\[2\]: \(document\): holds more than 65536 characters of text in all$/,
    ],
    [
      'a 500 on the second page (the first page is not applied either)',
      () => (req, res, url) =>
        url.searchParams.get('cursor') ? sendJson(res, {}, 500) : pages(valid, [])(req, res, url),
      /answered 500/,
    ],
    [
      'a cursor that loops',
      () => (_req, res) => sendJson(res, { servers: valid, metadata: { nextCursor: 'again' } }),
      /^page 2 gave a cursor already followed: the cursors loop$/,
    ],
    [
      'a 50 MB answer (read only up to the bound)',
      () => flood(50 * 1024 * 1024, sent),
      /^the answer is larger than 262144 bytes$/,
    ],
    [
      'an answer that declares a length over the bound',
      () => (_req, res) =>
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(10 * 1024 * 1024) }).end(),
      /^the answer is larger than 262144 bytes \(10485760\)$/,
    ],
    [
      'an invalid record among valid ones',
      () => pages([...valid, entry({ ...doc('io.example/bad'), websiteUrl: 'javascript:alert(1)' })]),
      /^page 1 has 1 invalid record: servers\[2\]: websiteUrl: must be a web address starting with https:\/\/ or http:\/\/$/,
    ],
    [
      'a record with an unknown status',
      () => pages([...valid, entry(doc('io.example/odd'), { status: 'paused' })]),
      /^page 1 has 1 invalid record: servers\[2\]: _meta status: /,
    ],
    [
      'the wrong content type',
      () => (_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html></html>'),
      /^\/v0\.1\/servers answered with text\/html, not JSON$/,
    ],
    [
      'an answer that is not JSON',
      () => (_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"servers": ['),
      /^an answer was not JSON: /,
    ],
    [
      'an answer that is not a server list',
      () => (_req, res) => sendJson(res, { servers: 'none' }),
      /^page 1 is not a server list: servers: /,
    ],
    [
      'a redirect to a link-local address (the cloud metadata service)',
      () => (_req, res) => res.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data/' }).end(),
      /^the redirect to http:\/\/169\.254\.169\.254\/latest\/meta-data\/ was refused: 169\.254\.169\.254 is a link-local address \(not on the allow-list\)$/,
    ],
    [
      'redirects without end',
      () => (_req, res) => res.writeHead(302, { Location: '/v0.1/servers?again' }).end(),
      /^more than 5 redirects$/,
    ],
    ['no answer in time', () => () => undefined, /^no whole answer within 0\.3 s$/],
    [
      'headers in time but a body that never ends',
      () => (_req, res) => void res.writeHead(200, { 'Content-Type': 'application/json' }).write('{"servers":['),
      /^no whole answer within 0\.3 s$/,
    ],
  ];

  it.each(HOSTILE)('%s', async (_name, make, reason) => {
    sent.bytes = 0;
    handler = make();
    const before = await snapshot();
    const upstream = await findUpstream(db, upstreamId);
    const timeoutMs = String(reason).includes('no whole answer') ? NEVER_FINISHES : LIMITS.timeoutMs;
    const result = await syncUpstream(db, upstream, { limits: { ...LIMITS, timeoutMs } });
    expect(result.outcome).toBe('refused');
    expect(result.reason).toMatch(reason);
    expect(await snapshot()).toEqual(before);
    // The refusal is kept for the console and audited.
    expect((await findUpstream(db, upstreamId)).lastSync).toMatchObject({ outcome: 'refused', reason: result.reason });
    const { entries } = await listAudit(db, { actor: 'job:sync' });
    expect(entries[0]).toMatchObject({ outcome: 'refused', summary: `refused: ${result.reason}` });
    if (sent.bytes) expect(sent.bytes).toBeLessThan(50 * 1024 * 1024);
  });

  it('an upstream at a loopback address the allow-list does not name: no request is made', async () => {
    handler = pages(valid);
    const before = await snapshot();
    asked.length = 0;
    const upstream = await findUpstream(db, upstreamId);
    const result = await syncUpstream(db, upstream, { limits: { ...LIMITS, allow: [] } });
    expect(result).toMatchObject({
      outcome: 'refused',
      reason: 'refused: 127.0.0.1 is a loopback address (not on the allow-list)',
    });
    expect(asked).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it('a public-looking name that resolves to a private address is refused (the name is resolved once, by the guard)', async () => {
    await db.updateTable('registry_upstreams').set({ url: 'http://registry.example.test' }).execute();
    const before = await snapshot();
    const [result] = await syncUpstreams(db, {
      limits: { ...LIMITS, resolve: async () => [{ address: '10.0.0.7', family: 4 }] },
    });
    expect(result).toMatchObject({
      outcome: 'refused',
      reason: 'refused: registry.example.test resolves to 10.0.0.7, which is a private address (not on the allow-list)',
    });
    expect(await snapshot()).toEqual(before);
  });

  it('an unreachable upstream', async () => {
    await db.updateTable('registry_upstreams').set({ url: 'http://127.0.0.1:9' }).execute();
    const before = await snapshot();
    const [result] = await syncUpstreams(db, opts);
    expect(result).toMatchObject({ outcome: 'refused' });
    expect(result!.reason).toMatch(/^could not be reached: /);
    expect(await snapshot()).toEqual(before);
  });

  it('a record the listing refuses undoes the whole run', async () => {
    await db.updateTable('registry_upstreams').set({ policy: 'list' }).execute();
    handler = pages(valid);
    const before = await snapshot();
    const [result] = await syncUpstreams(db, {
      ...opts,
      listNew: () => Promise.reject(new Error('Submission 1 cannot be published: name: too long')),
    });
    expect(result).toMatchObject({ outcome: 'refused', reason: 'Submission 1 cannot be published: name: too long' });
    expect(await snapshot()).toEqual(before);
  });

  it('a page the listing refuses is undone with its counts; the pages before it stay applied and counted', async () => {
    await db.updateTable('registry_upstreams').set({ policy: 'list' }).execute();
    // Page 2 lists c, then its b is refused: c's listing is undone with it, and not counted.
    handler = pages([entry(doc('io.example/a'))], [entry(doc('io.example/c')), entry(doc('io.example/b'))]);
    const [result] = await syncUpstreams(db, {
      ...opts,
      listNew: async (trx, id) => {
        const [server] = await trx
          .selectFrom('submission_servers')
          .select('name')
          .where('submission_id', '=', id)
          .execute();
        if (server?.name === 'io.example/b') throw new Error('Submission 2 cannot be published: name: too long');
        await approveSubmission(trx, id);
      },
    });
    expect(result).toMatchObject({ outcome: 'refused', counts: { pages: 2, records: 3, listed: 1, added: 0 } });
    expect(result!.reason).toMatch(
      /^Submission 2 cannot be published: name: too long \(on applying page 2; the 1 before/,
    );
    expect(await getServerRow(db, 'io.example/a')).toBeTruthy();
    expect(await getServerRow(db, 'io.example/c')).toBeNull();
    expect(await getServerRow(db, 'io.example/b')).toBeNull();
  });

  it('a run stopped by its job (time limit, the site stopping)', async () => {
    const stop = new AbortController();
    handler = (req, res, url) => {
      stop.abort();
      pages(valid, valid)(req, res, url);
    };
    const before = await snapshot();
    const [result] = await syncUpstreams(db, { ...opts, signal: stop.signal });
    expect(result).toMatchObject({
      outcome: 'refused',
      reason: 'stopped before its end (the job ran out of time, or the site is stopping)',
    });
    expect(await snapshot()).toEqual(before);
  });

  it('a second sync of the same upstream while one runs', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    handler = async (req, res, url) => {
      await held;
      pages(valid)(req, res, url);
    };
    const upstream = await findUpstream(db, upstreamId);
    const first = syncUpstream(db, upstream, opts);
    const second = await syncUpstream(db, upstream, opts);
    expect(second).toMatchObject({ outcome: 'refused', reason: 'a sync of this upstream is already running' });
    release();
    expect(await first).toMatchObject({ outcome: 'ok', counts: { added: 1, updated: 1 } });
  });

  it('a sync that read from a mark another sync has since moved', async () => {
    const stale = await findUpstream(db, upstreamId);
    handler = pages(valid);
    await syncUpstream(db, stale, opts);
    const before = await snapshot();
    const result = await syncUpstream(db, stale, opts);
    expect(result).toMatchObject({ outcome: 'refused', reason: 'another sync of this upstream finished first' });
    expect(await snapshot()).toEqual(before);
  });
});
