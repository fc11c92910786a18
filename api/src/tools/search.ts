/**
 * The directory's search (docs/product.md, Directory search): the one rule behind every place results show: the
 * home page (its server render and each keystroke in the browser), GET /api/tools, GET /api/tools/query and the
 * directory's MCP tools. A tool whose name, description or MCP tool names contain the whole typed text comes first;
 * then tools by how many of the typed words they have (in any form, or another word for it from the vocabulary):
 * every word before some; within each, the engine's weighted score, then popularity.
 */
import type { DB } from '../db/connection';
import type { ToolSummary } from '@aitools/contracts/tools';
import { DEFAULT_POPULARITY, queryTools, type ToolPage, type ToolQuery } from '@aitools/contracts/toolQuery';
import { containsAt, searchTextOf } from '@aitools/contracts/searchText';
import { didYouMean } from '@aitools/contracts/didYouMean';
import { listToolSummaries } from './repository';
import { searchWords } from './searchWords';
import { engineMatches } from './searchIndex';

const positions = new WeakMap<readonly ToolSummary[], Map<number, number>>();

function positionById(tools: readonly ToolSummary[]): Map<number, number> {
  let byId = positions.get(tools);
  if (!byId) {
    byId = new Map(tools.map((t, i) => [t.id, i]));
    positions.set(tools, byId);
  }
  return byId;
}

const popularity = (t: ToolSummary) => (typeof t.popularityScore === 'number' ? t.popularityScore : DEFAULT_POPULARITY);

/** The tools a search finds, best first (all of them: callers page, filter or sort them). */
export async function findTools(db: DB, text: string): Promise<ToolSummary[]> {
  return rankTools(db, await listToolSummaries(db), text);
}

/** findTools over a list the caller already holds (one read of the list per request). */
async function rankTools(db: DB, tools: ToolSummary[], text: string): Promise<ToolSummary[]> {
  const lowered = text.trim().toLowerCase();
  if (!lowered) return tools;
  const groups = searchWords(text);
  const matches = await engineMatches(db, groups, !/\s$/.test(text));
  const byId = positionById(tools);
  const matchOf = new Map(matches.map((m) => [m.id, m]));
  const searchText = searchTextOf(tools);
  const ranked = new Map<number, { whole: boolean; matched: number; score: number }>();
  // Tools with some of the words too, after those with more (never an empty page while a word matches).
  for (const m of matches) {
    const i = byId.get(m.id);
    if (i !== undefined) ranked.set(i, { whole: false, matched: m.matched, score: m.score });
  }
  for (let i = 0; i < tools.length; i++)
    if (containsAt(searchText, i, lowered)) {
      const found = matchOf.get(tools[i].id);
      ranked.set(i, { whole: true, matched: found?.matched ?? 0, score: found?.score ?? 0 });
    }
  return [...ranked]
    .sort(
      ([i, a], [j, b]) =>
        Number(b.whole) - Number(a.whole) ||
        b.matched - a.matched ||
        b.score - a.score ||
        popularity(tools[j]) - popularity(tools[i]) ||
        i - j,
    )
    .map(([i]) => tools[i]);
}

/** GET /api/tools?search=: the search alone, best first, with "did you mean" names when nothing is found. */
export async function searchToolList(db: DB, text: string): Promise<{ data: ToolSummary[]; suggestions?: string[] }> {
  const tools = await listToolSummaries(db);
  const data = await rankTools(db, tools, text);
  if (data.length || !text.trim()) return { data };
  return { data, suggestions: didYouMean(text, tools) };
}

/** One page of the directory for a query (search, category, type, sort, paging): what GET /api/tools/query answers,
 *  and so the home page's server render, its keystrokes in the browser and the directory's MCP tools. */
export async function searchTools(db: DB, q: ToolQuery): Promise<ToolPage> {
  const tools = await listToolSummaries(db);
  return queryTools(tools, q, q.search.trim() ? await rankTools(db, tools, q.search) : undefined);
}
