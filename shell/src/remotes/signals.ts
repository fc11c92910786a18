/**
 * Error reports per release: the browser tells the server (POST /api/signals, with navigator.sendBeacon) when a
 * remote's code fails to load, a route's boundary catches an error, hydration fails, or an unhandled error comes
 * from a remote's files. A report carries the remote, its release id (as the page named it), the kind, the route's
 * pattern, a short hash of the message and the token the page named for that remote (the server counts a report
 * only with it): no address, no query, nothing about the visitor. The server compares each release's rate with the
 * stable one's and rolls a clearly worse release back (docs/operations.md, Canary releases, error signals and
 * automatic rollback).
 */
import type { RemoteManifest } from './manifest';

export type SignalKind = 'load-error' | 'boundary' | 'hydration' | 'unhandled';

export const SIGNALS_PATH = '/api/signals';
/** Reports per page at most: a loop that throws must not flood the endpoint (the server has its own budget too). */
const MAX_PER_PAGE = 10;

let releases: RemoteManifest = {};
let tokens: Record<string, string> = {};
let routeOf: () => string = () => '/';
const sent = new Set<string>();

/** FNV-1a, 32 bits, as 8 hex digits: enough to group reports, not to read the message back. */
export function messageHash(message: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < message.length; i++) {
    h ^= message.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

const messageOf = (err: unknown) => (err instanceof Error ? `${err.name}: ${err.message}` : String(err)).slice(0, 500);

/** The releases the page was rendered with, how to name the current route's pattern, and the page's tokens. */
export function configureSignals(
  pageReleases: RemoteManifest,
  currentRoute: () => string,
  pageTokens: Record<string, string> = {},
): void {
  releases = pageReleases;
  routeOf = currentRoute;
  tokens = pageTokens;
}

/** Reports one error of a remote (once per remote, kind and message on a page). */
export function reportSignal(kind: SignalKind, remote: string, err: unknown, release = releases[remote]?.id): void {
  const token = tokens[remote];
  // Without the page's token the server would not count it (a page served without one, e.g. from a static file).
  if (!release || !token || typeof navigator === 'undefined' || typeof navigator.sendBeacon !== 'function') return;
  const hash = messageHash(messageOf(err));
  const once = `${remote}|${kind}|${hash}`;
  if (sent.has(once) || sent.size >= MAX_PER_PAGE) return;
  sent.add(once);
  const body = JSON.stringify({ remote, release, kind, route: routeOf(), hash, token });
  try {
    navigator.sendBeacon(SIGNALS_PATH, body);
  } catch {
    /* a report is best effort */
  }
}

/** Where in a remote's files a stack points: /remotes/<name>/<release>/ (first match). */
export function remoteOfStack(stack: string | undefined): { remote: string; release: string } | null {
  const m = /\/remotes\/([a-z]+)\/(\w[\w.-]*)\//.exec(stack ?? '');
  return m ? { remote: m[1]!, release: m[2]! } : null;
}

/** Unhandled errors and rejections whose stack is in a remote's files are that release's. */
export function watchUnhandledErrors(target: Pick<Window, 'addEventListener'> = window): void {
  const report = (err: unknown) => {
    const where = remoteOfStack((err as Error | undefined)?.stack);
    if (where) reportSignal('unhandled', where.remote, err, where.release);
  };
  target.addEventListener('error', (e) => report((e as ErrorEvent).error));
  target.addEventListener('unhandledrejection', (e) => report((e as PromiseRejectionEvent).reason));
}
