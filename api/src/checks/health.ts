/**
 * Health of remote MCP servers as kept (docs/mcp.md, "Health"): each check a row (registry/health.ts makes them); the
 * page's facts (last check, 30-day uptime and median time, the 7-day failing flag) and the list of servers whose
 * last check was healthy are read from those rows.
 */
import type { HealthFacts, HealthStatus } from '@aitools/contracts/checks';
import type { ServerJson } from '@aitools/contracts/mcp';
import type { DB } from '../db/connection';
import { publicWrite } from '../content/dataVersion';
import { bySlug } from './bySlug';

export interface HealthResult {
  status: HealthStatus;
  ms?: number;
  detail?: string;
}

const DAY = 86_400_000;
/** A server whose every check failed for this long is flagged. */
export const FAILING_FLAG_MS = 7 * DAY;
/** Checks kept this long (the 30-day figures, and a failing run seen from its start for a while after). */
const KEPT_MS = 90 * DAY;
/** A last check older than this is no server's current health: the health job checks hourly by default
 *  (JOB_HEALTH_EVERY; docs/operations.md, "Remote servers: inspection and health"), so this is many missed runs of
 *  it, and still a few of a daily schedule. */
export const CURRENT_MS = 3 * DAY;

/** One check of one server, as kept. */
export interface HealthCheck {
  slug: string;
  result: HealthResult;
  at?: Date;
}

/** Keeps the checks of a run and forgets those older than KEPT_MS: one public write for them all (one data version
 *  bump, one purge of the shared caches' data pages), however many servers the run checked. */
export async function recordHealth(db: DB, checks: readonly HealthCheck[]): Promise<void> {
  if (!checks.length) return;
  await publicWrite(db, async (trx) => {
    for (const { slug, result, at = new Date() } of checks) {
      await trx
        .insertInto('health_checks')
        .values({
          tool_slug: slug,
          checked_at: at.toISOString(),
          status: result.status,
          ms: result.ms ?? null,
          detail: result.detail ?? null,
        })
        .execute();
      await trx
        .deleteFrom('health_checks')
        .where('tool_slug', '=', slug)
        .where('checked_at', '<', new Date(at.getTime() - KEPT_MS).toISOString())
        .execute();
    }
    return true;
  });
}

const median = (values: number[]) => {
  if (!values.length) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
};

/** The server's health as its page shows it, or undefined before its first check. */
export async function healthFacts(db: DB, slug: string, now = new Date()): Promise<HealthFacts | undefined> {
  return (await healthFactsOf(db, [slug], now)).get(slug);
}

/** healthFacts of many servers (a page of /v0.1 answers) in one query, by slug; those never checked are left out. */
export async function healthFactsOf(db: DB, slugs: string[], now = new Date()): Promise<Map<string, HealthFacts>> {
  if (!slugs.length) return new Map();
  const rows = await db
    .selectFrom('health_checks')
    .select(['tool_slug', 'checked_at', 'status', 'ms', 'detail'])
    .where('tool_slug', 'in', slugs)
    .orderBy('id')
    .execute();
  return new Map([...bySlug(rows)].map(([slug, checks]) => [slug, factsOf(checks, now)]));
}

function factsOf(
  rows: { checked_at: string; status: string; ms: number | null; detail: string | null }[],
  now: Date,
): HealthFacts {
  const last = rows[rows.length - 1]!;
  const since = new Date(now.getTime() - 30 * DAY).toISOString();
  const recent = rows.filter((r) => r.checked_at >= since);
  const healthy = recent.filter((r) => r.status === 'healthy');
  // The failing run: the checks after the last healthy one (all of them when none was healthy).
  const lastHealthy = rows.findLastIndex((r) => r.status === 'healthy');
  const firstFailing = rows[lastHealthy + 1];
  const failingSince =
    last.status !== 'healthy' && firstFailing && now.getTime() - Date.parse(firstFailing.checked_at) >= FAILING_FLAG_MS
      ? firstFailing.checked_at
      : undefined;
  return {
    last: {
      at: last.checked_at,
      status: last.status as HealthStatus,
      ...(last.ms !== null ? { ms: last.ms } : {}),
      ...(last.detail !== null ? { detail: last.detail } : {}),
    },
    checks30d: recent.length,
    uptime30d: recent.length ? healthy.length / recent.length : 0,
    ...(median(healthy.map((r) => r.ms ?? 0)) !== undefined ? { medianMs: median(healthy.map((r) => r.ms ?? 0)) } : {}),
    ...(failingSince ? { failingSince } : {}),
  };
}

/** Whether a server's last check (at `at`) is its current health: younger than CURRENT_MS, and
 *  its record still has a remote (the health job checks only those: one removed since leaves an old check nothing
 *  replaces). */
export function isCurrentHealth(at: string, doc: ServerJson, now = new Date()): boolean {
  return now.getTime() - Date.parse(at) <= CURRENT_MS && Boolean(doc.remotes?.length);
}

/** Each server's current health, by its tool's slug (the cards and the healthy filter read it): its last check, when
 *  that is younger than CURRENT_MS and its record still has a remote. Any other server is shown as never checked. */
export async function lastHealth(db: DB, now = new Date()): Promise<Map<string, HealthStatus>> {
  const rows = await db
    .selectFrom('health_checks as h')
    .innerJoin('mcp_servers as m', 'm.tool_slug', 'h.tool_slug')
    .select(['h.tool_slug', 'h.status', 'h.checked_at', 'm.doc'])
    .where('h.id', '=', (eb) =>
      eb
        .selectFrom('health_checks as l')
        .select((l) => l.fn.max('l.id').as('id'))
        .whereRef('l.tool_slug', '=', 'h.tool_slug'),
    )
    .execute();
  const current = rows.filter((r) => isCurrentHealth(r.checked_at, JSON.parse(r.doc) as ServerJson, now));
  return new Map(current.map((r) => [r.tool_slug, r.status as HealthStatus]));
}

/** Servers failing for FAILING_FLAG_MS or more, for the console's Checks screen. */
export async function failingServers(db: DB, now = new Date()): Promise<{ slug: string; since: string }[]> {
  const out: { slug: string; since: string }[] = [];
  for (const [slug, status] of await lastHealth(db, now)) {
    if (status === 'healthy') continue;
    const facts = await healthFacts(db, slug, now);
    if (facts?.failingSince) out.push({ slug, since: facts.failingSince });
  }
  return out.sort((a, b) => a.slug.localeCompare(b.slug));
}
