/**
 * Which visitors a canary serves. Each browser gets a bucket, 0-99, chosen at random by the server on its first
 * page (a browser's navigation) while a canary runs and kept in a first-party cookie (a number, nothing about the visitor); a remote's canary
 * serves the buckets below its share. The same bucket on every request means a visitor never switches release in a
 * visit. Crawlers and requests without the cookie (after that first page) get the stable release.
 */
import { randomInt } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Manifest } from './manifest';
import { requestCookies, siteCookie } from '../http/cookies';

export const BUCKET_COOKIE = 'release_bucket';
/** A year: the bucket is no one's data, and a visitor who keeps it keeps the same release through each canary. */
const BUCKET_MAX_AGE = 365 * 24 * 60 * 60;
const CRAWLER = /bot|crawl|spider|slurp|bingpreview|facebookexternalhit|lighthouse/i;

type Req = Pick<IncomingMessage, 'headers'>;

export function isCrawler(req: Req): boolean {
  return CRAWLER.test(String(req.headers['user-agent'] ?? ''));
}

/** The bucket the request's cookie names, or null. */
export function bucketCookie(req: Req): number | null {
  const value = requestCookies(req)[BUCKET_COOKIE];
  return value !== undefined && /^\d{1,2}$/.test(value) ? Number(value) : null;
}

export interface Canaries {
  /** remote -> canary release for this request: the visitor's bucket is below the canary's share. Crawlers get none. */
  pins(req: Req): Record<string, string>;
  /** Whether this request must be given a bucket before its page renders: a canary runs, it is a browser's page
   *  navigation without one, not a crawler's. */
  needsBucket(req: Req): boolean;
  /** Picks this request's bucket (pins() then sees it) and returns its Set-Cookie. */
  assign(req: Req, secure: boolean): string;
}

export function createCanaries(manifest: () => Manifest): Canaries {
  const assigned = new WeakMap<object, number>();
  const running = () => Object.entries(manifest().remotes).filter(([, s]) => s.canary);
  return {
    pins(req) {
      const out: Record<string, string> = {};
      const list = running();
      if (!list.length || isCrawler(req)) return out;
      const bucket = assigned.get(req) ?? bucketCookie(req);
      if (bucket === null) return out;
      for (const [remote, state] of list) if (bucket < state.canary!.percent) out[remote] = state.canary!.id;
      return out;
    },
    // Only a browser's page navigation is given a bucket (and rendered for it): a client that keeps no cookies
    // (a monitor, a script) would otherwise skip the page cache on every request; it gets the stable pages.
    needsBucket: (req) =>
      !assigned.has(req) &&
      req.headers['sec-fetch-dest'] === 'document' &&
      bucketCookie(req) === null &&
      !isCrawler(req) &&
      running().length > 0,
    assign(req, secure) {
      const bucket = randomInt(100);
      assigned.set(req, bucket);
      return siteCookie(BUCKET_COOKIE, String(bucket), BUCKET_MAX_AGE, secure);
    },
  };
}
