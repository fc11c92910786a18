/**
 * The one way the site asks another server something on a visitor's or a record's word (a remote MCP server's URL):
 * a fetch that refuses addresses that are not public. The host is resolved once; the request is refused when any of
 * its addresses is loopback, private, link-local, unique-local, multicast, unspecified, CGNAT, an IPv4-mapped or
 * otherwise embedded address, or any range ipaddr.js does not call plain unicast, unless the operator's allow-list
 * names the host or the address. The connection goes to the address checked (the lookup is pinned: no second answer
 * from DNS can move it), redirects are followed here and checked again, and every answer is bounded in bytes and time.
 * docs/operations.md (Outgoing requests) describes the settings.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, fetch as undiciFetch } from 'undici';

export interface GuardOptions {
  /** Host names, addresses and CIDR ranges the operator allows although they are not public (OUTBOUND_ALLOW). */
  allow: string[];
  /** Bytes one answer's body may hold; more ends it with an error. */
  maxBytes: number;
  /** Time for one request, its redirects and reading its body. */
  timeoutMs: number;
  /** Redirects followed (each checked) before giving up. */
  maxRedirects: number;
  /** The resolver (tests give one that answers a private address for a public-looking name). */
  resolve?: (host: string) => Promise<{ address: string; family: number }[]>;
}

export const DEFAULT_GUARD: GuardOptions = { allow: [], maxBytes: 4 * 1024 * 1024, timeoutMs: 15_000, maxRedirects: 5 };

/** A request the guard would not make, with the reason shown to operators and on inspection failures. */
export class RefusedRequest extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'RefusedRequest';
  }
}

const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a unique-local address',
  multicast: 'a multicast address',
  unspecified: 'an unspecified address',
  carrierGradeNat: 'a carrier-grade NAT address',
  broadcast: 'a broadcast address',
  reserved: 'a reserved address',
};

/** Why an address is not public, or null when it is plain unicast. An IPv4-mapped IPv6 address is judged as the
 *  IPv4 address it carries. */
export function notPublic(address: string): string | null {
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  const range = ip.range();
  if (range === 'unicast') return null;
  return RANGE_WORDS[range] ?? `a special-purpose address (${range})`;
}

/** Whether the allow-list names this host or address (an entry may be a CIDR range). */
function allowed(allow: string[], host: string, address?: string): boolean {
  for (const entry of allow) {
    if (entry.toLowerCase() === host.toLowerCase()) return true;
    if (!address) continue;
    if (entry.includes('/')) {
      try {
        const [range, bits] = ipaddr.parseCIDR(entry);
        const ip = ipaddr.parse(address);
        if (ip.kind() === range.kind() && ip.match([range, bits])) return true;
      } catch {
        // Not a range: compared as a name above.
      }
    } else if (ipaddr.isValid(entry) && ipaddr.parse(entry).toString() === ipaddr.parse(address).toString())
      return true;
  }
  return false;
}

const systemResolve = async (host: string) => dnsLookup(host, { all: true, verbatim: true });

/** Resolves the URL's host once and returns the address to connect to, or throws RefusedRequest with the reason. */
export async function checkedAddress(url: URL, opts: GuardOptions): Promise<{ address: string; family: number }> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new RefusedRequest(`refused: ${url.protocol} is not http or https`);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = isIP(host)
    ? [{ address: host, family: isIP(host) }]
    : await (opts.resolve ?? systemResolve)(host).catch((err: unknown) => {
        throw new RefusedRequest(`${host} could not be resolved (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
      });
  if (!addresses.length) throw new RefusedRequest(`${host} could not be resolved (no address)`);
  // Every address must pass: one private answer among public ones is enough for DNS to aim at the inside.
  for (const { address } of addresses) {
    const why = notPublic(address);
    if (why && !allowed(opts.allow, host, address))
      throw new RefusedRequest(
        `refused: ${host === address ? address : `${host} resolves to ${address}, which`} is ${why} (not on the allow-list)`,
      );
  }
  return addresses[0]!;
}

/** An agent whose every connection goes to the one address checked, whatever the name it is given. */
function pinnedAgent(address: string, family: number): Agent {
  return new Agent({
    // One request per agent: an idle socket is not kept for a next request that never comes.
    keepAliveTimeout: 1000,
    keepAliveMaxTimeout: 1000,
    connect: {
      lookup: (_host, options, callback) => {
        // Node asks for every address (autoSelectFamily) or for one.
        if ((options as { all?: boolean }).all)
          (callback as (e: null, a: object[]) => void)(null, [{ address, family }]);
        else (callback as (e: null, a: string, f: number) => void)(null, address, family);
      },
    },
  });
}

/** The body, ended with an error once it passes `max` bytes. */
function bounded(body: ReadableStream<Uint8Array>, max: number): ReadableStream<Uint8Array> {
  let bytes = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytes += chunk.byteLength;
        if (bytes > max) controller.error(new RefusedRequest(`the answer is larger than ${max} bytes`));
        else controller.enqueue(chunk);
      },
    }),
  );
}

const duration = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`);

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Statuses a Response may not carry a body with. */
const NO_BODY = new Set([101, 204, 205, 304]);

/** A fetch (the shape the MCP SDK's transports take) that makes only requests the guard allows. */
export function guardedFetch(opts: GuardOptions): (input: string | URL, init?: RequestInit) => Promise<Response> {
  return async (input, init = {}) => {
    const timeout = AbortSignal.timeout(opts.timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    let url = new URL(String(input));
    let method = init.method ?? 'GET';
    let body = init.body;
    for (let hop = 0; ; hop++) {
      const { address, family } = await checkedAddress(url, opts).catch((err: unknown) => {
        if (hop > 0 && err instanceof RefusedRequest)
          throw new RefusedRequest(`the redirect to ${url.href} was ${err.message}`);
        throw err;
      });
      const agent = pinnedAgent(address, family);
      let answer: Awaited<ReturnType<typeof undiciFetch>>;
      try {
        answer = await undiciFetch(url, {
          method,
          headers: init.headers as Record<string, string> | undefined,
          body: body as string | undefined,
          redirect: 'manual',
          signal,
          dispatcher: agent,
        });
      } catch (err) {
        void agent.close();
        if (timeout.aborted) throw new RefusedRequest(`no answer within ${duration(opts.timeoutMs)}`);
        throw err;
      }
      const location = answer.headers.get('location');
      if (REDIRECTS.has(answer.status) && location) {
        await answer.body?.cancel().catch(() => undefined);
        void agent.close();
        if (hop >= opts.maxRedirects) throw new RefusedRequest(`more than ${opts.maxRedirects} redirects`);
        url = new URL(location, url);
        // 303, and 301/302 after a POST, turn into a GET without a body (as browsers do).
        if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      const declared = Number(answer.headers.get('content-length') ?? 0);
      if (declared > opts.maxBytes) {
        await answer.body?.cancel().catch(() => undefined);
        void agent.close();
        throw new RefusedRequest(`the answer is larger than ${opts.maxBytes} bytes (${declared})`);
      }
      const stream =
        answer.body && !NO_BODY.has(answer.status)
          ? bounded(answer.body as ReadableStream<Uint8Array>, opts.maxBytes).pipeThrough(
              new TransformStream({ flush: () => void agent.close() }),
            )
          : null;
      if (!stream) void agent.close();
      const headers = new Headers();
      answer.headers.forEach((value, name) => headers.append(name, value));
      const out = new Response(stream, { status: answer.status, statusText: answer.statusText, headers });
      Object.defineProperty(out, 'url', { value: url.href });
      return out;
    }
  };
}
