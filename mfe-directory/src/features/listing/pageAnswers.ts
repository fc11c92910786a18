import { routeApi } from '@aitools/platform';
import { toolQueryString, type ToolQuery } from '@aitools/api/contracts/toolQuery';
import { loadToolPage, type HomePage } from '../tools/api/loadTools';

/** An answer is reused this long (a query typed again, Back to the list); after it the data may have changed. */
const ANSWER_TTL_MS = 30_000;
const MAX_ANSWERS = 50;

// Browser only: the server renders each request from the API in process and keeps nothing between visitors.
const answers = new Map<string, { at: number; page: Promise<HomePage> }>();

/**
 * One page of a large catalogue's directory (GET /api/tools/query), asked for once: the visitor's change asks as it
 * happens, so the page can show as soon as it arrives, and the route's loader, run by the navigation that follows,
 * gets the same answer instead of asking again. A failed call (the built-in tools, or an error) is not kept.
 */
export function askPage(q: ToolQuery): Promise<HomePage> {
  const key = toolQueryString(q);
  const now = performance.now();
  const held = answers.get(key);
  if (held && now - held.at < ANSWER_TTL_MS) return held.page;
  const page = loadToolPage(routeApi(undefined).fetchJson, q);
  const entry = { at: now, page };
  answers.delete(key);
  answers.set(key, entry);
  if (answers.size > MAX_ANSWERS) answers.delete(answers.keys().next().value!);
  const forget = () => answers.get(key) === entry && answers.delete(key);
  page.then((p) => p.source !== 'api' && forget(), forget);
  return page;
}

/** Forgets every answer (Try Again after a failure asks afresh). */
export function forgetPages(): void {
  answers.clear();
}
