/**
 * Health checks of remote MCP servers (docs/mcp.md, "Health"): `initialize` and `tools/list` through the SSRF guard,
 * the answer classified as healthy, needs sign-in, answers HTTP but not MCP, unreachable or timed out, and kept
 * (checks/health.ts).
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { InspectedRemote } from '@aitools/contracts/inspection';
import type { ServerJson } from '@aitools/contracts/mcp';
import type { DB } from '../db/connection';
import { guardedFetch, RefusedRequest, type GuardOptions } from '../http/ssrfGuard';
import { recordHealth, type HealthCheck, type HealthResult } from '../checks/health';
import { connectRemote, reasonOf, type Seen } from './remote';

/** The remote a health check asks: the first whose address needs no value of the user's (headers are not needed to
 *  tell a live server: one that wants a token answers 401, which is "needs sign-in"). */
export function healthTarget(doc: ServerJson): InspectedRemote | null {
  const r = (doc.remotes ?? []).find((x) => !/\{\w+\}/.test(x.url));
  return r ? { type: r.type, url: r.url } : null;
}

/** The authorization server the protected resource metadata names (from the 401's `resource_metadata`, else the
 *  well-known address of the resource), asked through the guard; undefined when there is none to read. */
async function authorizationServer(
  wwwAuthenticate: string | undefined,
  resource: URL,
  guard: GuardOptions,
): Promise<string | undefined> {
  const named = wwwAuthenticate?.match(/resource_metadata="([^"]+)"/)?.[1];
  const path = resource.pathname === '/' ? '' : resource.pathname;
  const metadata = named ? new URL(named, resource) : new URL(`/.well-known/oauth-protected-resource${path}`, resource);
  try {
    const answer = await guardedFetch(guard)(metadata, { headers: { accept: 'application/json' } });
    if (!answer.ok) return undefined;
    const servers = ((await answer.json()) as { authorization_servers?: unknown }).authorization_servers;
    return Array.isArray(servers) && typeof servers[0] === 'string' ? servers[0] : undefined;
  } catch {
    return undefined;
  }
}

const timedOut = (err: unknown) =>
  (err instanceof McpError && err.code === (ErrorCode.RequestTimeout as number)) ||
  (err instanceof RefusedRequest && err.message.startsWith('no answer within'));

/** What the failure says about the server. */
async function classify(err: unknown, seen: Seen, remote: InspectedRemote, guard: GuardOptions): Promise<HealthResult> {
  if (timedOut(err)) return { status: 'timed-out', detail: reasonOf(err) };
  if (seen.statuses.includes(401)) {
    const server = await authorizationServer(seen.wwwAuthenticate, new URL(remote.url), guard);
    return { status: 'needs-sign-in', ...(server ? { detail: `signs in at ${server}` } : {}) };
  }
  if (err instanceof RefusedRequest && !seen.statuses.length) return { status: 'unreachable', detail: err.message };
  if (seen.statuses.length) {
    const last = seen.statuses[seen.statuses.length - 1]!;
    return {
      status: 'not-mcp',
      detail: `HTTP ${last}${seen.contentType ? ` (${seen.contentType.split(';')[0]})` : ''}: ${reasonOf(err)}`.slice(
        0,
        300,
      ),
    };
  }
  return { status: 'unreachable', detail: reasonOf(err).slice(0, 300) };
}

/** One check: initialize and tools/list within `timeoutMs`, timed from the first request to the list. */
export async function checkHealth(
  remote: InspectedRemote,
  guard: GuardOptions,
  timeoutMs: number,
): Promise<HealthResult> {
  const seen: Seen = { statuses: [] };
  const started = performance.now();
  let connected: Awaited<ReturnType<typeof connectRemote>> | undefined;
  try {
    connected = await connectRemote(remote, guard, seen, timeoutMs);
    await connected.client.listTools(undefined, {
      timeout: Math.max(1, timeoutMs - (performance.now() - started)),
    });
    return { status: 'healthy', ms: Math.round(performance.now() - started) };
  } catch (err) {
    return classify(err, seen, remote, guard);
  } finally {
    await connected?.client.close().catch(() => undefined);
  }
}

/** Checks every remote server (or the given ones), one at a time; a line per server. The results are kept together
 *  at the end (one public write), and those of a run stopped midway (its time limit, the site stopping) too. */
export async function runHealthChecks(
  db: DB,
  guard: GuardOptions,
  opts: { slugs?: string[]; timeoutMs?: number; now?: () => Date; signal?: AbortSignal } = {},
): Promise<string[]> {
  let q = db.selectFrom('mcp_servers').select(['tool_slug', 'doc']).orderBy('tool_slug');
  if (opts.slugs) q = q.where('tool_slug', 'in', opts.slugs.length ? opts.slugs : ['']);
  const lines: string[] = [];
  const checks: HealthCheck[] = [];
  try {
    for (const row of await q.execute()) {
      opts.signal?.throwIfAborted();
      const target = healthTarget(JSON.parse(row.doc) as ServerJson);
      if (!target) continue;
      const result = await checkHealth(target, guard, opts.timeoutMs ?? guard.timeoutMs);
      checks.push({ slug: row.tool_slug, result, at: opts.now?.() ?? new Date() });
      lines.push(
        `${row.tool_slug}: ${result.status}${result.ms !== undefined ? ` in ${result.ms} ms` : ''}${result.detail ? ` (${result.detail})` : ''}`,
      );
    }
  } finally {
    await recordHealth(db, checks);
  }
  return lines;
}
