/**
 * The directory's search (docs/product.md, Directory search): the one rule behind every place results show: the
 * home page (its server render and each keystroke in the browser), GET /api/tools, GET /api/tools/query and the
 * directory's MCP tools. A tool whose name, description or MCP tool names contain the whole typed text comes first;
 * then tools by how many of the typed words they have (in any form, or another word for it from the vocabulary):
 * every word before some; within each, the engine's weighted score, then popularity.
 */
import type { DB } from '../db/connection';
import type { ToolSummary } from '@aitools/contracts/tools';
import {
  clampPage,
  queryTools,
  toolPage,
  totalPages,
  type ToolPage,
  type ToolQuery,
} from '@aitools/contracts/toolQuery';
import { didYouMean } from '@aitools/contracts/didYouMean';
import { listToolSummaries } from './repository';
import { searchWords } from './searchWords';
import { rankedIds, type IndexFilters, type IndexSearch, type Window } from './searchIndex';

const NO_FILTERS: IndexFilters = { category: 'All', type: 'all' };

const byIdOf = new WeakMap<readonly ToolSummary[], Map<number, ToolSummary>>();

/** The held list's tools by id (made once per list). */
function byId(tools: readonly ToolSummary[]): Map<number, ToolSummary> {
  let map = byIdOf.get(tools);
  if (!map) byIdOf.set(tools, (map = new Map(tools.map((t) => [t.id, t]))));
  return map;
}

/** What the index is asked for a typed text. */
export function indexSearch(text: string): IndexSearch {
  return { groups: searchWords(text), prefixLast: !/\s$/.test(text), lowered: text.trim().toLowerCase() };
}

/** The tools a search finds, best first (all of them: callers page, filter or sort them). */
export async function findTools(db: DB, text: string): Promise<ToolSummary[]> {
  return rankTools(db, await listToolSummaries(db), text);
}

const MCP_SERVERS: IndexFilters = { category: 'All', type: 'mcp-servers' };

/** The MCP servers a search finds, best first: what /v0.1/servers?search= lists, the same tools in the same order as
 *  the directory's MCP Servers filter (the filter applies before the meaning's guess is placed). */
export async function findServers(db: DB, text: string): Promise<ToolSummary[]> {
  return (await ranked(db, await listToolSummaries(db), text, MCP_SERVERS)).tools;
}

/** findTools over a list the caller already holds (one read of the list per request). */
async function rankTools(db: DB, tools: ToolSummary[], text: string): Promise<ToolSummary[]> {
  if (!text.trim()) return tools;
  return ranked(db, tools, text, NO_FILTERS).then((r) => r.tools);
}

/** The ranked tools of `ids` in the held list (a tool listed since the index was read is left out). */
async function ranked(db: DB, tools: readonly ToolSummary[], text: string, filters: IndexFilters, window?: Window) {
  const { ids, total } = await rankedIds(db, indexSearch(text), filters, window);
  const held = byId(tools);
  return { tools: ids.flatMap((id) => held.get(id) ?? []), total };
}

/** GET /api/tools?search=: the search alone, best first, with "did you mean" names when nothing is found. */
export async function searchToolList(db: DB, text: string): Promise<{ data: ToolSummary[]; suggestions?: string[] }> {
  const tools = await listToolSummaries(db);
  const data = await rankTools(db, tools, text);
  if (data.length || !text.trim()) return { data };
  return { data, suggestions: didYouMean(text, tools) };
}

/** One page of the directory for a query (search, category, type, sort, paging): what GET /api/tools/query answers,
 *  and so the home page's server render, its keystrokes in the browser and the directory's MCP tools. In Best match
 *  order the database ranks, filters, counts and cuts the page; another sort orders the found tools its way. */
export async function searchTools(db: DB, q: ToolQuery): Promise<ToolPage> {
  const tools = await listToolSummaries(db);
  if (!q.search.trim()) return queryTools(tools, q);
  if (q.sort !== 'relevance') return queryTools(tools, q, await rankTools(db, tools, q.search));
  const at = (page: number) => ranked(db, tools, q.search, q, { limit: q.size, offset: (page - 1) * q.size });
  // No search finds more tools than the catalogue holds: a page past that is past the last, and its offset stays small.
  let page = clampPage(q.page, totalPages(tools.length, q.size));
  let found = await at(page);
  // A page past the last: the last page (the count comes with any page's rows).
  if (!found.tools.length && page > 1) {
    const { total } = await at(1);
    page = clampPage(page, totalPages(total, q.size));
    found = await at(page);
  }
  return toolPage(tools, q, { tools: found.tools, total: found.total, page });
}
