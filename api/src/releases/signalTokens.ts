/**
 * What stands behind a visitor's error report (docs/operations.md, "What counts as a signal"):
 * - a token the server signed when it rendered the page: an HMAC over remote, release, a page nonce and the time,
 *   valid for TOKEN_TTL_MS. A stored page keeps its token, so the page cache starts a new entry every
 *   TOKEN_PERIOD_MS (ssr/pageCache.ts) and a token is never older than a period when it leaves the server;
 * - the source the server sees: the client address (Express's req.ip, which follows TRUST_PROXY), as a visitor
 *   (IPv4 address, IPv6 /64) and a network (IPv4 /24, IPv6 /48), each kept only as a keyed hash.
 * A token counts at most REPORTS_PER_TOKEN reports from one source: visitors of a cached page share its token.
 * Fresh tokens are cheap (a page at a new query string), so a source's counts are capped per release as well: errors per
 * visitor and per network, and page views per visitor and window. No one address or network then decides an error
 * rate, neither its errors nor its denominator (docs/reliability.md).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { ipKeyGenerator } from 'express-rate-limit';
import { LRUCache } from 'lru-cache';

/** A stored page is rendered again (with a new token) after this long. */
export const TOKEN_PERIOD_MS = 30 * 60_000;
/** A token is taken for this long after it was signed: a period in the page cache, then a visit. */
export const TOKEN_TTL_MS = 2 * 60 * 60_000;
/** Reports one token counts from one source. */
export const REPORTS_PER_TOKEN = 3;
/** Errors one visitor (ERRORS_PER_NETWORK: one network) counts for a release, per ERRORS_WINDOW_MS. */
export const ERRORS_PER_VISITOR = 3;
export const ERRORS_PER_NETWORK = 6;
export const ERRORS_WINDOW_MS = 24 * 60 * 60_000;
/** Page views one visitor counts for a release per VIEWS_WINDOW_MS. */
export const VIEWS_PER_VISITOR = 5;
export const VIEWS_WINDOW_MS = 10 * 60_000;
/** Keys each cap remembers (the oldest are forgotten first). */
const CAP_KEYS = 50_000;

/** Why a report was not counted. */
export const REFUSALS = ['missing', 'invalid', 'expired', 'spent', 'capped', 'rate-limited'] as const;
export type Refusal = (typeof REFUSALS)[number];

/** The token's shape: signing time (seconds, base 36), nonce, MAC. */
export const TOKEN_FORMAT = /^([0-9a-z]{1,10})\.([\w-]{12})\.([\w-]{22})$/;

/** The page cache's period now (one number per TOKEN_PERIOD_MS). */
export const tokenPeriod = (now = Date.now()) => Math.floor(now / TOKEN_PERIOD_MS);

export interface Source {
  /** A keyed hash of the visitor's address (IPv4) or /64 (IPv6). */
  visitor: string;
  /** A keyed hash of its /24 (IPv4) or /48 (IPv6). */
  network: string;
}

export interface SignalTokens {
  /** Tokens for a page: remote -> token for the release it names, one nonce for the page. */
  issue(releases: Record<string, string>, now?: number): Record<string, string>;
  /** Whether a token names this remote and release and is still valid; the refusal otherwise. */
  verify(token: string | undefined, remote: string, release: string, now?: number): Refusal | null;
  /** The source of a request from its address (as Express reads it). */
  source(ip: string): Source;
  /** Counts a report against its token and source; false once REPORTS_PER_TOKEN are spent. */
  spend(token: string, source: Source): boolean;
  /** Counts an error report against its source's caps for the release; false once the visitor's or network's are
   *  spent. */
  claimError(remote: string, release: string, source: Source): boolean;
  /** Counts a page view, from the request's address, against its visitor's cap for the release; false once spent.
   *  It runs for every page answered, so it hashes the visitor only (a view has no network cap). */
  claimView(remote: string, release: string, ip: string): boolean;
}

/** Bounded counters per key, each kept for `ttl` from its first use (the oldest keys are forgotten first). */
function counters(ttl: number) {
  const used = new LRUCache<string, number>({ max: CAP_KEYS, ttl, noUpdateTTL: true });
  return {
    left: (key: string, max: number) => (used.get(key) ?? 0) < max,
    take: (key: string) => void used.set(key, (used.get(key) ?? 0) + 1),
  };
}

/** The visitor and network parts of an address; an IPv4-mapped IPv6 address is its IPv4 address. */
export function addressParts(ip: string): { visitor: string; network: string } {
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1] ?? (isIPv4(ip) ? ip : null);
  if (v4) return { visitor: v4, network: `${v4.split('.').slice(0, 3).join('.')}.0/24` };
  if (isIPv6(ip)) return { visitor: ipKeyGenerator(ip, 64), network: ipKeyGenerator(ip, 48) };
  return { visitor: ip, network: ip };
}

export function createSignalTokens(secret: string): SignalTokens {
  const mac = (text: string) => createHmac('sha256', secret).update(text).digest('base64url');
  const sign = (remote: string, release: string, nonce: string, at: string) =>
    mac(`signal-token\u0000${remote}\u0000${release}\u0000${nonce}\u0000${at}`).slice(0, 22);
  const visitorOf = (ip: string) => mac(`visitor\u0000${addressParts(ip).visitor}`).slice(0, 16);
  const spent = counters(TOKEN_TTL_MS);
  const errors = counters(ERRORS_WINDOW_MS);
  const views = counters(VIEWS_WINDOW_MS);
  return {
    issue(releases, now = Date.now()) {
      const nonce = randomBytes(9).toString('base64url');
      const at = Math.floor(now / 1000).toString(36);
      return Object.fromEntries(
        Object.entries(releases).map(([remote, release]) => [
          remote,
          `${at}.${nonce}.${sign(remote, release, nonce, at)}`,
        ]),
      );
    },
    verify(token, remote, release, now = Date.now()) {
      if (!token) return 'missing';
      const m = TOKEN_FORMAT.exec(token);
      if (!m) return 'invalid';
      const [, at, nonce, given] = m as unknown as [string, string, string, string];
      const expected = Buffer.from(sign(remote, release, nonce, at));
      if (!timingSafeEqual(Buffer.from(given), expected)) return 'invalid';
      const age = now - parseInt(at, 36) * 1000;
      return age < -60_000 || age > TOKEN_TTL_MS ? 'expired' : null;
    },
    source(ip) {
      return { visitor: visitorOf(ip), network: mac(`network\u0000${addressParts(ip).network}`).slice(0, 16) };
    },
    spend(token, source) {
      const key = `${token}\u0000${source.visitor}`;
      if (!spent.left(key, REPORTS_PER_TOKEN)) return false;
      spent.take(key);
      return true;
    },
    claimError(remote, release, source) {
      const visitor = `${remote}\u0000${release}\u0000v\u0000${source.visitor}`;
      const network = `${remote}\u0000${release}\u0000n\u0000${source.network}`;
      if (!errors.left(visitor, ERRORS_PER_VISITOR) || !errors.left(network, ERRORS_PER_NETWORK)) return false;
      errors.take(visitor);
      errors.take(network);
      return true;
    },
    claimView(remote, release, ip) {
      const key = `${remote}\u0000${release}\u0000${visitorOf(ip)}`;
      if (!views.left(key, VIEWS_PER_VISITOR)) return false;
      views.take(key);
      return true;
    },
  };
}
