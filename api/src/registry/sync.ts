/**
 * Following an upstream registry (docs/mcp.md, "Following upstream registries"): one run reads what changed since the
 * last good one (`updated_since`, cursor pages of GET /v0.1/servers, at most the upstream's pages per run) and checks
 * every answer and record before it changes anything: anything wrong refuses the run with the reason. Then it applies
 * them page by page through the import's own path (import.ts bringInAll), a transaction per page that also moves the
 * upstream's mark past it, so a run stopped between pages keeps what it applied and the next one goes on from there.
 * A run is paced (SYNC_SHARE) so that it never takes the site from its visitors. Each run's result is kept
 * (registry_syncs) and audited as `job:sync`.
 */
import { isRealDateTime } from '@aitools/contracts/fields';
import { META_KEY, OFFICIAL_META_KEY, serverJsonSchema, type ServerJson } from '@aitools/contracts/mcp';
import { issueLines } from '@aitools/contracts/zod';
import { escapeForDisplay } from '@aitools/contracts/text';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { inTransaction, type DB } from '../db/connection';
import { writeAudit } from '../content/audit';
import { publicWrite } from '../content/dataVersion';
import { markSubmissionReviewed } from '../forms/repository';
import { HttpError } from '../middleware/errors';
import { guardedFetch, RefusedRequest, type GuardOptions } from '../http/ssrfGuard';
import { bringInAll, pendingSubmissionFor, whatWeHave } from './import';
import { getServerRow } from './repository';
import { listUpstreams, upstreamBase, type SyncCounts, type SyncRecord, type Upstream } from './upstreams';

export const SYNC_ACTOR = 'job:sync';
/** Records per page asked for: the most the registry's API gives (ours and the official one). */
export const PAGE_SIZE = 100;
/** Redirects an upstream's answer may take (each to an address the guard checks again). */
const SYNC_REDIRECTS = 5;
const STOPPED = 'stopped before its end (the job ran out of time, or the site is stopping)';
/** Our own namespace (the directory's own MCP server, which each copy of this site points at itself): a copy of this
 *  site upstream describes its own, never ours, so a sync leaves these names alone. */
const OWN_NAMESPACE = `${META_KEY.slice(0, META_KEY.indexOf('/'))}/`;
/** Invalid records named in a refusal; the rest are counted. */
const NAMED_INVALID = 3;

export interface SyncLimits extends Pick<GuardOptions, 'allow' | 'resolve'> {
  /** One page's whole answer (its redirects, headers and body) within this long. */
  timeoutMs: number;
  /** The most of one page's answer read (declared or sent). */
  maxBytes: number;
}

/** Lists a new server at once (the moderators' approval, given by the caller: it sits on a floor above this one). */
export type ListNew = (trx: DB, submissionId: number) => Promise<unknown>;

/**
 * The most of the time a sync may spend working (reading a page and waiting for it, checking it, applying it): after
 * each page it rests nine times as long as the page took. The issue's measure of a polite sync is that visitors keep
 * at least 0.9 of their throughput while it runs (docs/performance.md, "Upstream sync"): even a page that took the
 * whole machine leaves it to them nine tenths of the time.
 */
export const SYNC_SHARE = 0.1;

/** What a pace reads and waits on: the real clock, or a test's. */
export interface PaceClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}
const realClock: PaceClock = {
  now: () => performance.now(),
  sleep: (ms, signal) => sleep(ms, undefined, { signal }).catch(() => undefined),
};

/** Keeps a run's work under `share` of its time: before each step, the rest the previous one earned. */
export class Pace {
  private owed = 0;
  constructor(
    private readonly share: number,
    private readonly clock: PaceClock = realClock,
  ) {
    if (!(share > 0 && share <= 1)) throw new Error(`a pace's share is above 0 and at most 1, not ${share}`);
  }

  async step<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.owed > 0) await this.clock.sleep(this.owed, signal);
    if (signal?.aborted) throw new Refusal(STOPPED);
    const start = this.clock.now();
    try {
      return await work();
    } finally {
      this.owed = ((this.clock.now() - start) * (1 - this.share)) / this.share;
    }
  }
}

export interface SyncOptions {
  limits: SyncLimits;
  listNew?: ListNew;
  /** The job's end (its time limit, or the site stopping): the run stops at its next page, refused. */
  signal?: AbortSignal;
  /** The share of the time the run may work (SYNC_SHARE where the site runs it); without it, at full speed. */
  share?: number;
  /** The clock the pace reads (a test's). */
  clock?: PaceClock;
}

export interface SyncResult extends SyncRecord {
  upstream: string;
  /** Pages remain past this run's limit: the next run goes on from where it stopped. */
  more: boolean;
}

/** Why a run changes nothing: the upstream's answer, or a record, is not one we take. */
class Refusal extends Error {}

type Status = 'active' | 'deprecated' | 'deleted';
/** A checked record, kept as its JSON text until its page is applied: a run's pages stay small in memory. */
interface Change {
  name: string;
  status: Status;
  docText: string;
}

const pageSchema = z.object({
  servers: z.array(z.unknown()),
  metadata: z
    .object({ nextCursor: z.string().min(1).max(2000).nullish() })
    .passthrough()
    .optional(),
});
const entrySchema = z.object({ server: z.unknown(), _meta: z.record(z.string(), z.unknown()).optional() });
const listingMetaSchema = z
  .object({ status: z.enum(['active', 'deprecated', 'deleted']).optional(), updatedAt: z.string().optional() })
  .passthrough();

const emptyCounts = (): SyncCounts => ({
  pages: 0,
  records: 0,
  added: 0,
  listed: 0,
  updated: 0,
  unchanged: 0,
  deleted: 0,
  skipped: 0,
});

export function countsText(c: SyncCounts): string {
  return (
    `${c.pages} pages, ${c.records} records: ${c.added} added as submissions, ${c.listed} listed, ` +
    `${c.updated} updated, ${c.unchanged} unchanged, ${c.deleted} deleted, ${c.skipped} skipped`
  );
}

/** A run's result for the operator's terminal (the reason quotes the upstream, so shown escaped). */
export function formatSyncResult(r: SyncResult): string {
  const what =
    r.outcome === 'ok'
      ? `synced: ${countsText(r.counts)}${r.more ? ' (more pages remain: the next run goes on)' : ''}`
      : `refused, nothing changed: ${r.reason}`;
  return escapeForDisplay(`${r.upstream} ${what}`);
}

/** One page's answer, asked through the SSRF guard (http/ssrfGuard.ts: the host resolved once and pinned, refused
 *  when not public unless OUTBOUND_ALLOW names it, redirects followed and checked again, the body bounded by the
 *  sync's own byte limit), then checked as the sync wants it: a 200, JSON, UTF-8. */
async function readPage(url: URL, limits: SyncLimits, stop?: AbortSignal): Promise<unknown> {
  if (stop?.aborted) throw new Refusal(STOPPED);
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = stop ? AbortSignal.any([timeout, stop]) : timeout;
  const guarded = guardedFetch({
    allow: limits.allow,
    maxBytes: limits.maxBytes,
    timeoutMs: limits.timeoutMs,
    maxRedirects: SYNC_REDIRECTS,
    ...(limits.resolve ? { resolve: limits.resolve } : {}),
  });
  try {
    const res = await guarded(url, { signal, headers: { Accept: 'application/json' } });
    try {
      if (res.status !== 200) throw new Refusal(`${new URL(res.url).pathname} answered ${res.status}`);
      const type = res.headers.get('content-type') ?? '';
      if (!/^application\/([\w.-]+\+)?json\s*(;|$)/i.test(type))
        throw new Refusal(`${url.pathname} answered ${type ? `with ${type}` : 'with no content type'}, not JSON`);
      const bytes = new Uint8Array(await res.arrayBuffer());
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        throw new Refusal('an answer was not valid UTF-8 text');
      }
      try {
        return JSON.parse(text);
      } catch (err) {
        throw new Refusal(`an answer was not JSON: ${err instanceof Error ? err.message : String(err)}`);
      }
    } finally {
      if (res.body && !res.bodyUsed) await res.body.cancel().catch(() => undefined);
    }
  } catch (err) {
    if (err instanceof Refusal) throw err;
    if (stop?.aborted) throw new Refusal(STOPPED);
    if (signal.aborted) throw new Refusal(`no whole answer within ${limits.timeoutMs / 1000} s`);
    // The guard's own words: an address not public, a redirect there, too many redirects, an answer over the bound.
    if (err instanceof RefusedRequest) throw new Refusal(err.message);
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
    throw new Refusal(`could not be reached: ${cause}`);
  }
}

function pageUrl(upstream: Upstream, cursor: string | null): URL {
  const url = new URL(`${upstream.url}/v0.1/servers`);
  url.searchParams.set('limit', String(PAGE_SIZE));
  url.searchParams.set('version', 'latest');
  if (upstream.since) url.searchParams.set('updated_since', upstream.since);
  if (cursor) url.searchParams.set('cursor', cursor);
  return url;
}

/** The listing facts of an entry: the official registry's, else ours (a copy of this site upstream). */
function listingMeta(meta: Record<string, unknown> | undefined): unknown {
  return meta?.[OFFICIAL_META_KEY] ?? meta?.[META_KEY] ?? {};
}

/** One entry of a page: its server.json checked with the import's schema, its status and when it changed. */
function readEntry(entry: unknown): { change: Change; updatedAt: string | null } | { reasons: string[] } {
  const shape = entrySchema.safeParse(entry);
  if (!shape.success) return { reasons: ['not a { server, _meta } entry'] };
  const doc = serverJsonSchema.safeParse(shape.data.server);
  const meta = listingMetaSchema.safeParse(listingMeta(shape.data._meta));
  const reasons = [
    ...(doc.success ? [] : issueLines(doc.error)),
    ...(meta.success ? [] : issueLines(meta.error).map((line) => `_meta ${line}`)),
  ];
  const updatedAt = meta.success ? meta.data.updatedAt : undefined;
  if (updatedAt !== undefined && !isRealDateTime(updatedAt)) reasons.push('_meta updatedAt: not a date-time');
  if (reasons.length || !doc.success || !meta.success) return { reasons };
  return {
    change: { name: doc.data.name, status: meta.data.status ?? 'active', docText: JSON.stringify(doc.data) },
    updatedAt: updatedAt ? new Date(updatedAt).toISOString() : null,
  };
}

/** One page of the run, checked, as it will be applied. */
interface ReadPage {
  /** Its records by name (a record read again on a later page is applied there only). */
  changes: Map<string, Change>;
  /** The cursor of the page after it (null: the upstream's last page). */
  next: string | null;
  /** The newest change read up to this page (the upstream's clock): the next sync's `updated_since` once the pages
   *  end. */
  mark: string | null;
}

/** Reads the run's pages and checks them all; the first thing wrong refuses the run. */
async function readChanges(upstream: Upstream, opts: SyncOptions, pace: Pace, counts: SyncCounts): Promise<ReadPage[]> {
  const pages: ReadPage[] = [];
  const pageOf = new Map<string, ReadPage>();
  let cursor = upstream.resumeCursor;
  let mark = upstream.resumeMark;
  // A change dated after now cannot be the upstream's latest: a mark past our clock would ask for nothing, forever.
  const now = new Date().toISOString();
  const followed = new Set(cursor ? [cursor] : []);
  for (let page = 1; page <= upstream.pagesPerRun; page++) {
    const read = await pace.step(async () => {
      const body = pageSchema.safeParse(await readPage(pageUrl(upstream, cursor), opts.limits, opts.signal));
      counts.pages++;
      if (!body.success)
        throw new Refusal(
          `page ${page} is not a server list: ${issueLines(body.error).slice(0, NAMED_INVALID).join('; ')}`,
        );
      const changes = new Map<string, Change>();
      const invalid: string[] = [];
      for (const [i, entry] of body.data.servers.entries()) {
        // Each record's check is the site's work on one thread: visitors' requests go between them.
        await nextTurn();
        const read = readEntry(entry);
        if ('reasons' in read) {
          invalid.push(`servers[${i}]: ${read.reasons.join('; ')}`);
          continue;
        }
        pageOf.get(read.change.name)?.changes.delete(read.change.name);
        changes.set(read.change.name, read.change);
        const at = read.updatedAt && (read.updatedAt < now ? read.updatedAt : now);
        if (at && (!mark || at > mark)) mark = at;
      }
      counts.records += body.data.servers.length;
      if (invalid.length)
        throw new Refusal(
          `page ${page} has ${invalid.length} invalid record${invalid.length === 1 ? '' : 's'}: ` +
            invalid.slice(0, NAMED_INVALID).join(' | ') +
            (invalid.length > NAMED_INVALID ? ` | and ${invalid.length - NAMED_INVALID} more` : ''),
        );
      const next = body.data.metadata?.nextCursor ?? null;
      if (next && followed.has(next))
        throw new Refusal(`page ${page} gave a cursor already followed: the cursors loop`);
      return { changes, next, mark };
    }, opts.signal);
    pages.push(read);
    for (const name of read.changes.keys()) pageOf.set(name, read);
    if (!read.next) break;
    followed.add(read.next);
    cursor = read.next;
  }
  return pages;
}

/** A server deleted upstream leaves our lists: its tool is hidden (as an editor's hide does), a pending submission
 *  of it rejected. False when we had neither. */
async function removeServer(trx: DB, name: string, now: string): Promise<boolean> {
  const known = await getServerRow(trx, name);
  if (known)
    return publicWrite(trx, async (w) => {
      const r = await w
        .updateTable('tools')
        .set({ hidden_at: now })
        .where('slug', '=', known.tool_slug)
        .where('hidden_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    });
  const pending = await pendingSubmissionFor(trx, name);
  if (pending === null) return false;
  await markSubmissionReviewed(trx, pending, 'rejected', null, now);
  return true;
}

/** Applies one page's records (a few statements for the page, whatever its size). */
async function applyPage(trx: DB, upstream: Upstream, page: ReadPage, opts: SyncOptions, counts: SyncCounts) {
  const now = new Date().toISOString();
  const kept: ServerJson[] = [];
  const changes = [...page.changes.values()];
  // A deprecated server is kept up to date where we have it, and not brought in where we do not.
  const deprecated = changes.filter((c) => c.status === 'deprecated').map((c) => c.name);
  const had = await whatWeHave(trx, deprecated);
  for (const { name, status, docText } of changes) {
    if (name.startsWith(OWN_NAMESPACE)) counts.skipped++;
    else if (status === 'deleted') {
      if (await removeServer(trx, name, now)) counts.deleted++;
      else counts.skipped++;
    } else if (status === 'deprecated' && !had.known.has(name) && !had.pending.has(name)) counts.skipped++;
    else kept.push(JSON.parse(docText) as ServerJson);
  }
  const brought = await bringInAll(trx, kept, (doc) => `Followed from ${upstream.url}: ${doc.name} ${doc.version}`);
  for (const r of brought) {
    if (r.outcome !== 'added') counts[r.outcome]++;
    else if (upstream.policy === 'list' && opts.listNew) {
      await opts.listNew(trx, r.submissionId);
      counts.listed++;
    } else counts.added++;
  }
}

/** Moves the upstream's mark past a page applied, from where the run found it (`from`): a sync of the same upstream
 *  that moved it first (another instance) refuses this one. */
async function moveMark(trx: DB, upstream: Upstream, from: string | null, page: ReadPage): Promise<void> {
  const r = await trx
    .updateTable('registry_upstreams')
    .set(
      page.next
        ? { resume_cursor: page.next, resume_mark: page.mark }
        : { since: page.mark ?? upstream.since, resume_cursor: null, resume_mark: null },
    )
    .where('id', '=', upstream.id)
    .where((eb) =>
      eb.and([
        upstream.since === null ? eb('since', 'is', null) : eb('since', '=', upstream.since),
        from === null ? eb('resume_cursor', 'is', null) : eb('resume_cursor', '=', from),
      ]),
    )
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) throw new Refusal('another sync of this upstream finished first');
}

/** Keeps the run's result, with its audit row. */
async function keep(db: DB, upstream: Upstream, result: SyncResult): Promise<void> {
  await db
    .insertInto('registry_syncs')
    .values({
      upstream_id: upstream.id,
      started_at: result.startedAt,
      finished_at: result.finishedAt,
      outcome: result.outcome,
      reason: result.reason,
      counts: JSON.stringify(result.counts),
    })
    .execute();
  await writeAudit(db, {
    actor: SYNC_ACTOR,
    action: 'registry.sync',
    target: upstream.url,
    summary: result.reason ? `refused: ${result.reason}` : countsText(result.counts),
    outcome: result.outcome === 'ok' ? 'ok' : 'refused',
  });
}

/** Syncs running in this process, by upstream: a second one of the same upstream is refused at once. */
const running = new Set<number>();

/** One run of one upstream. A refusal is a result (kept, with its reason), never an exception. */
export async function syncUpstream(db: DB, upstream: Upstream, opts: SyncOptions): Promise<SyncResult> {
  const startedAt = new Date().toISOString();
  const counts = emptyCounts();
  const result = (reason: string | null, more = false, kept = counts): SyncResult => ({
    upstream: upstream.url,
    startedAt,
    finishedAt: new Date().toISOString(),
    outcome: reason === null ? 'ok' : 'refused',
    reason,
    counts: kept,
    more,
  });
  const refuse = async (reason: string, kept = counts) => {
    const refused = result(reason, false, kept);
    await inTransaction(db, (trx) => keep(trx, upstream, refused));
    return refused;
  };
  if (running.has(upstream.id)) return refuse('a sync of this upstream is already running');
  running.add(upstream.id);
  try {
    const pace = new Pace(opts.share ?? 1, opts.clock);
    let pages: ReadPage[];
    try {
      pages = await readChanges(upstream, opts, pace, counts);
    } catch (err) {
      // What the run counted is kept as read; nothing of it was applied. Whatever went wrong is this upstream's
      // result, kept with its reason: the next upstream is synced all the same (only the job's end stops the run).
      if (err instanceof Refusal) return await refuse(err.message);
      if (opts.signal?.aborted) throw err;
      return await refuse(`the run failed: ${String(err)}`.slice(0, 500));
    }
    const applied = { ...counts };
    let from = upstream.resumeCursor;
    for (const [i, page] of pages.entries()) {
      // A page's counts join the run's only once its transaction commits: one undone counts nothing.
      const tally = { ...applied };
      try {
        await pace.step(
          () =>
            inTransaction(db, async (trx) => {
              await applyPage(trx, upstream, page, opts, tally);
              await moveMark(trx, upstream, from, page);
            }),
          opts.signal,
        );
        Object.assign(applied, tally);
      } catch (err) {
        // A record the listing refuses, another sync first, or the job's end: this page's transaction undid it.
        const reason = err instanceof Error ? err.message : String(err);
        return await refuse(
          i === 0
            ? reason
            : `${reason} (on applying page ${i + 1}; the ${i} before it were applied, and the next run goes on from there)`,
          applied,
        );
      }
      from = page.next;
    }
    const done = result(null, pages[pages.length - 1]?.next != null, applied);
    await inTransaction(db, (trx) => keep(trx, upstream, done));
    return done;
  } finally {
    running.delete(upstream.id);
  }
}

/** Syncs every upstream (or the one named by its id or address), one after the other. */
export async function syncUpstreams(db: DB, opts: SyncOptions, only?: string): Promise<SyncResult[]> {
  const all = await listUpstreams(db);
  const base = only === undefined ? null : upstreamBase(only);
  const upstreams = only === undefined ? all : all.filter((u) => String(u.id) === only || u.url === base);
  if (only !== undefined && !upstreams.length) throw new HttpError(404, `No upstream is ${only}.`);
  const results: SyncResult[] = [];
  for (const upstream of upstreams) results.push(await syncUpstream(db, upstream, opts));
  return results;
}
