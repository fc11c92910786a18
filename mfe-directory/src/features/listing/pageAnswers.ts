import { routeApi } from '@aitools/platform';
import { queryTools, toolQueryString, type ToolQuery } from '@aitools/contracts/toolQuery';
import type { ToolSummary } from '@aitools/contracts/tools';
import { loadToolPage, type HomePage } from '../tools/api/loadTools';

/** An answer is reused this long (a query typed again, Back to the list); after it the data may have changed. */
const ANSWER_TTL_MS = 30_000;
const MAX_ANSWERS = 50;

interface Answer {
  query: ToolQuery;
  at: number;
  page: Promise<HomePage>;
  /** Once it has arrived. */
  value?: HomePage;
}

// Browser only: the server renders each request from the API in process and keeps nothing between visitors.
const answers = new Map<string, Answer>();

/** Every result of an answer, when it came with them (few enough, or all on its page). */
const heldMatches = (page: HomePage): ToolSummary[] | null =>
  page.matches ?? (page.total === page.tools.length ? page.tools : null);

/** Whether every result of `wanted` is among the results of `held`: the same or a longer search, and the same
 *  category and type unless `held` had none. */
function covers(held: ToolQuery, wanted: ToolQuery): boolean {
  return (
    wanted.search.trim().toLowerCase().includes(held.search.trim().toLowerCase()) &&
    (held.category === 'All' || held.category === wanted.category) &&
    (held.type === 'all' || held.type === wanted.type)
  );
}

/**
 * The page for `q` at once: its own answer when it has arrived (asked ahead, `askAhead`), or else the same query
 * code run over an answer holding all of its results (a longer search, a category, another sort or page of few
 * results), so typing on within a narrow search needs no request. Null when none does, or when nothing matches a
 * search (its suggestions come from the API).
 */
export function answerAtOnce(q: ToolQuery): HomePage | null {
  const now = performance.now();
  const exact = answers.get(toolQueryString(q));
  if (exact?.value && now - exact.at < ANSWER_TTL_MS) return exact.value;
  for (const answer of [...answers.values()].reverse()) {
    const held =
      answer.value && now - answer.at < ANSWER_TTL_MS && answer.value.source === 'api'
        ? heldMatches(answer.value)
        : null;
    if (!held || !covers(answer.query, q)) continue;
    const page = queryTools(held, q);
    if (page.total === 0 && q.search.trim()) return null;
    const { suggestions: _none, ...found } = page;
    return { ...found, catalogue: answer.value!.catalogue, featured: answer.value!.featured, source: 'api' };
  }
  return null;
}

/**
 * One page of a large catalogue's directory, asked for once: from an answer already held when it can be
 * (`answerAtOnce`), else from the API (GET /api/tools/query). The visitor's change asks as it happens, so the page can
 * show as soon as it arrives, and the route's loader, run by the navigation that follows, gets the same answer
 * instead of asking again. A failed call (the built-in tools, or an error) is not kept.
 */
export function askPage(q: ToolQuery): Promise<HomePage> {
  const key = toolQueryString(q);
  const now = performance.now();
  const held = answers.get(key);
  if (held && now - held.at < ANSWER_TTL_MS) return held.page;
  const local = answerAtOnce(q);
  if (local) return Promise.resolve(local);
  const page = loadToolPage(routeApi(undefined).fetchJson, q);
  const entry: Answer = { query: q, at: now, page };
  answers.delete(key);
  answers.set(key, entry);
  if (answers.size > MAX_ANSWERS) answers.delete(answers.keys().next().value!);
  const forget = () => answers.get(key) === entry && answers.delete(key);
  page.then((p) => (p.source === 'api' ? (entry.value = p) : forget()), forget);
  return page;
}

/** How many next keystrokes are asked for ahead. */
const AHEAD = 3;

/** The characters most likely typed after `search`: those that follow it most often in the names and descriptions
 *  of the results on screen (the most popular matches, so a fair sample of the catalogue's words). */
export function likelyNext(search: string, tools: ToolSummary[], count = AHEAD): string[] {
  const text = search.toLowerCase();
  if (!text.trim()) return [];
  const seen = new Map<string, number>();
  for (const t of tools)
    for (const field of [t.name.toLowerCase(), t.description.toLowerCase()])
      for (let at = field.indexOf(text); at !== -1; at = field.indexOf(text, at + 1)) {
        const next = field[at + text.length];
        if (next && /[\p{L}\p{N} ]/u.test(next)) seen.set(next, (seen.get(next) ?? 0) + 1);
      }
  return [...seen]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([c]) => c);
}

/**
 * While a visitor types in a large catalogue's search, the pages of the likeliest next keystrokes are asked for
 * ahead (at most three small requests, each cached by the API), so the next key usually finds its answer waiting.
 */
export function askAhead(q: ToolQuery, page: HomePage): void {
  if (page.source !== 'api' || heldMatches(page)) return;
  for (const next of likelyNext(q.search, page.tools)) void askPage({ ...q, search: q.search + next, page: 1 });
}

/** Keeps a page that came another way (the server's render) as the answer for its query, if none is held. */
export function keepAnswer(q: ToolQuery, page: HomePage): void {
  const key = toolQueryString(q);
  if (page.source !== 'api' || answers.has(key)) return;
  answers.set(key, { query: q, at: performance.now(), page: Promise.resolve(page), value: page });
}

/** Forgets every answer (Try Again after a failure asks afresh). */
export function forgetPages(): void {
  answers.clear();
}
