/**
 * Remote MCP servers (a record's `remotes`, Streamable HTTP or SSE): asked with the official SDK's client transports,
 * whose every request goes through the SSRF guard (http/ssrfGuard.ts). A refused address is an inspection failure
 * with the reason, and no request is made. The inspection has the shape a package's has, so its tools show on the
 * page and the checks run on them (docs/mcp.md, "Remote servers").
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ServerJson } from '@aitools/contracts/mcp';
import type { InspectedRemote, McpInspection } from '@aitools/contracts/inspection';
import { checkedAddress, guardedFetch, RefusedRequest, type GuardOptions } from '../http/ssrfGuard';
import { DEFAULT_LIMITS, offerOf, OverBudget } from './inspector';
import { npmPackageOf } from './versions';

/** A remote server: a record with remotes and no npm package to run, inspected over its transport (by the
 *  `inspect-remotes` job, the one job that asks remotes what they offer). */
export function isRemoteServer(doc: ServerJson): boolean {
  return Boolean(doc.remotes?.length) && !npmPackageOf(doc);
}

/** The remote to ask: the first one that needs no value only its user has (a token, a tenant in the URL). */
export function remoteOf(doc: ServerJson): InspectedRemote | { skip: string } | null {
  const remotes = doc.remotes ?? [];
  if (!remotes.length) return null;
  const needs: string[] = [];
  for (const r of remotes) {
    const required = (r.headers ?? []).filter(
      (h) => h.isRequired && (h.value === undefined || /\{\w+\}/.test(h.value)),
    );
    if (required.length) needs.push(...required.map((h) => h.name));
    else if (/\{\w+\}/.test(r.url)) needs.push(r.url.match(/\{(\w+)\}/)![1]!);
    else return { type: r.type, url: r.url };
  }
  return { skip: `needs credentials (${[...new Set(needs)].join(', ')})` };
}

/** What the guarded fetch saw: each answer's status and the headers a failure is read from. */
export interface Seen {
  statuses: number[];
  wwwAuthenticate?: string;
  contentType?: string;
}

/** A client connected (initialize done) to the remote, and what its requests saw; `seen` is filled even when the
 *  connection fails, so a caller can tell "refused", "not MCP" and "needs sign-in" apart. */
export async function connectRemote(
  remote: InspectedRemote,
  guard: GuardOptions,
  seen: Seen,
  timeoutMs: number,
): Promise<{ client: Client; transport: Transport }> {
  const url = new URL(remote.url);
  // Refused before any request: the transport would otherwise wrap the reason in its own words.
  await checkedAddress(url, guard);
  const guarded = guardedFetch({ ...guard, timeoutMs });
  const fetch = async (input: string | URL, init?: RequestInit) => {
    const answer = await guarded(input, init);
    seen.statuses.push(answer.status);
    seen.wwwAuthenticate ??= answer.headers.get('www-authenticate') ?? undefined;
    seen.contentType = answer.headers.get('content-type') ?? undefined;
    return answer;
  };
  // Redirects are the guard's to follow (each one checked), so the transports are told to leave them to it.
  const transport =
    remote.type === 'sse'
      ? new SSEClientTransport(url, { fetch, redirectPolicy: 'follow' })
      : new StreamableHTTPClientTransport(url, { fetch, redirectPolicy: 'follow' });
  const client = new Client({ name: 'aitools-inspector', version: '1.0.0' });
  await client.connect(transport, { timeout: timeoutMs });
  return { client, transport };
}

/** The error's own words, with a network error's code (fetch says only "fetch failed"). */
export function reasonOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ? `${err.message} (${cause.code})` : err.message;
}

/** Asks the record's remote what it offers (initialize, then the lists, all within `timeoutMs`). */
export async function inspectRemote(
  doc: ServerJson,
  guard: GuardOptions,
  timeoutMs: number,
  today = new Date().toISOString().slice(0, 10),
): Promise<McpInspection | null> {
  const remote = remoteOf(doc);
  if (!remote) return null;
  const version = doc.version ?? '';
  if ('skip' in remote) return { status: 'not-inspected', reason: remote.skip, checkedAt: today, version };
  const deadline = Date.now() + timeoutMs;
  const options = () => ({ timeout: Math.max(1, deadline - Date.now()) });
  let connected: { client: Client; transport: Transport } | undefined;
  try {
    connected = await connectRemote(remote, guard, { statuses: [] }, timeoutMs);
    // The guard bounds each answer; all the lists together are held to the total a package's output is.
    const offer = await offerOf(connected.client, options, DEFAULT_LIMITS.maxStdoutBytes);
    return {
      status: 'inspected',
      remote,
      version,
      inspectedAt: today,
      ...(offer.serverInfo ? { serverInfo: offer.serverInfo } : {}),
      ...(offer.instructions ? { instructions: offer.instructions } : {}),
      tools: offer.tools,
      prompts: offer.prompts,
      resources: offer.resources,
    };
  } catch (err) {
    return {
      status: 'not-inspected',
      reason: (err instanceof RefusedRequest || err instanceof OverBudget
        ? err.message
        : `it did not answer over MCP: ${reasonOf(err)}`
      ).slice(0, 600),
      checkedAt: today,
      remote,
      version,
    };
  } finally {
    await connected?.client.close().catch(() => undefined);
  }
}
