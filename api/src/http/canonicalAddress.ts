/**
 * The address a cached answer is kept under: the path and only the query parameters its route reads, sorted by name
 * (a name given twice keeps its values in their order). A parameter the route does not read (`?utm_source=`, a
 * counter) cannot change the answer, so it makes no new entry and no new render (docs/architecture.md, Caching).
 */
import { matchPage } from '@aitools/platform/route-match';

export function canonicalAddress(url: string, reads: readonly string[]): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const path = url.slice(0, q);
  const kept = [...new URLSearchParams(url.slice(q + 1))].filter(([name]) => reads.includes(name));
  if (kept.length === 0) return path;
  // Array sort is stable: a name's values stay in the order given.
  kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${path}?${new URLSearchParams(kept).toString()}`;
}

/**
 * A page's address as its cache keys it: the route table's parameters for that page (@aitools/platform/routes); a
 * path with no page is the 404 screen, which reads none.
 */
export function canonicalPageAddress(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  return canonicalAddress(url, matchPage(url.slice(0, q))?.route.query ?? []);
}

/** Whether the route table has a page at this address's path. */
export const isPageAddress = (url: string) => matchPage(url.split('?', 1)[0]!) !== null;
