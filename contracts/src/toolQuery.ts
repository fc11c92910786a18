/**
 * The directory's query (docs/product.md, Directory and Directory search): search, category, type, sort and paging over tool summaries. Pure,
 * so the API (GET /api/tools/query, the server render's data) and the directory page in the browser (instant
 * filtering of a small catalogue) give the same answer.
 */
import type { ToolSummary } from './tools';
import { didYouMean } from './didYouMean';
import { containsAt, searchTextOf, type SearchText } from './searchText';

/** The 15 categories of the filter bar (docs/product.md, Directory), in display order. */
export const CATEGORIES = [
  'All',
  'AI Assistants',
  'Content Creation',
  'Development',
  'Productivity',
  'Business & Marketing',
  'Research & Analysis',
  'Communication',
  'MCP Servers',
  'Music & Audio',
  'Video & Animation',
  'Image Generation',
  'Education & Learning',
  'Finance & Investment',
  'Design & Creative',
] as const;

/** Categories seen in data under another name: "AI Tools" is AI Assistants, "MCP" is MCP Servers. */
export function normaliseCategory(category: string | undefined): string | undefined {
  if (category === 'AI Tools') return 'AI Assistants';
  if (category === 'MCP') return 'MCP Servers';
  return category;
}

/** A tool's type has two readings (docs/product.md, Tool data); each is used where that page puts it. */
export type ToolType = 'AI Tool' | 'MCP Servers';

interface Typed {
  category?: string;
  tags?: string[];
}

/** Card badge reading: MCP/MCP Servers category; with no category, a tag containing "mcp" or "server". */
export function cardToolType(tool: Typed | null | undefined): ToolType {
  if (!tool) return 'AI Tool';
  if (tool.category) return tool.category === 'MCP' || tool.category === 'MCP Servers' ? 'MCP Servers' : 'AI Tool';
  return (tool.tags ?? []).some((t) => /mcp|server/i.test(t)) ? 'MCP Servers' : 'AI Tool';
}

/** Directory filter reading: category MCP Servers or MCP, or the tag "mcp-server". */
export function filterToolType(tool: Typed): ToolType {
  if (tool.category === 'MCP Servers' || tool.category === 'MCP') return 'MCP Servers';
  return (tool.tags ?? []).some((t) => t.toLowerCase() === 'mcp-server') ? 'MCP Servers' : 'AI Tool';
}

/** Only the first value of a comma-separated pricing is shown (docs/product.md, Tool card). */
export function firstPricing(pricing: string | undefined): string {
  return (pricing ?? '').split(',')[0].trim();
}

/** Sort rank for the pricing sort: Free, Freemium, Paid, then anything else. */
export function pricingRank(pricing: string | undefined): number {
  const rank = { free: 0, freemium: 1, paid: 2 } as Record<string, number>;
  return rank[firstPricing(pricing).toLowerCase()] ?? 3;
}

export const DEFAULT_POPULARITY = 5;
export type SortKey = 'relevance' | 'popularity' | 'alphabetical' | 'pricing';
export const SORT_OPTIONS: { value: SortKey; label: string }[] = [
  { value: 'relevance', label: 'Best match' },
  { value: 'popularity', label: 'Most Popular' },
  { value: 'alphabetical', label: 'Alphabetical (A-Z)' },
  { value: 'pricing', label: 'Pricing (Free first)' },
];

/** Type filter values as written in the URL; "free" and "paid" come from the detail page's Explore More links, and
 *  "checked" (MCP servers whose texts were checked with no open finding, docs/mcp.md) and "healthy" (remote servers
 *  whose last health check was healthy) from the MCP Servers view. */
export type TypeFilter = 'all' | 'ai-tool' | 'mcp-servers' | 'free' | 'paid' | 'checked' | 'healthy';
export const TYPE_OPTIONS: { value: TypeFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'ai-tool', label: 'AI Tool' },
  { value: 'mcp-servers', label: 'MCP Servers' },
];

export function parseTypeFilter(value: string | null): TypeFilter {
  return value === 'ai-tool' ||
    value === 'mcp-servers' ||
    value === 'free' ||
    value === 'paid' ||
    value === 'checked' ||
    value === 'healthy'
    ? value
    : 'all';
}

interface Filters {
  search: string;
  category: string;
  type: TypeFilter;
  pricing?: PricingFilter;
}

/** A pricing filter beside the type (the MCP server's search_tools): the same readings as the type filter's free and paid. */
export type PricingFilter = 'free' | 'paid';

/** What the filters read of a tool (the search's index keeps them beside its words, api/src/tools/searchIndex.ts). */
export interface ToolFacets {
  /** The category as the filter bar names it ('' for none). */
  category: string;
  mcp: boolean;
  free: boolean;
  paid: boolean;
  /** An MCP server whose texts were checked with no open finding. */
  checked: boolean;
  /** An MCP server whose last health check found it healthy. */
  healthy: boolean;
}

export function toolFacets(tool: ToolSummary): ToolFacets {
  const mcp = filterToolType(tool) === 'MCP Servers';
  return {
    category: normaliseCategory(tool.category) ?? '',
    mcp,
    free: /^free/i.test(firstPricing(tool.pricing)),
    paid: /paid/i.test(tool.pricing ?? ''),
    checked: mcp && tool.openFindings === 0,
    healthy: mcp && tool.health === 'healthy',
  };
}

/** Whether a tool's facets pass a type filter. */
export function matchesType(facets: ToolFacets, type: TypeFilter): boolean {
  switch (type) {
    case 'all':
      return true;
    case 'ai-tool':
      return !facets.mcp;
    case 'mcp-servers':
      return facets.mcp;
    case 'free':
    case 'paid':
    case 'checked':
    case 'healthy':
      return facets[type];
  }
}

/** Whether item `i` of a list passes the filters; `lowered`: the search, trimmed and lower-cased ('' when the
 *  search was answered already). */
function passes(
  tool: ToolSummary,
  i: number,
  text: SearchText | null,
  lowered: string,
  { category, type, pricing }: Filters,
): boolean {
  if (lowered && !containsAt(text!, i, lowered)) return false;
  const facets = toolFacets(tool);
  return (
    (category === 'All' || facets.category === category) &&
    matchesType(facets, type) &&
    (!pricing || matchesType(facets, pricing))
  );
}

/** Best match while a search is active, else Most Popular (docs/product.md, Directory search). */
export const defaultSort = (search: string): SortKey => (search.trim() ? 'relevance' : 'popularity');

/** A query with some of its parts changed: a sort left at its default follows the search (Best match while
 *  searching, else Most Popular), so clearing a search never leaves Best match behind in the address. */
export function updateQuery(before: ToolQuery, update: Partial<ToolQuery>): ToolQuery {
  const after = { ...before, ...update };
  if (update.search !== undefined && !update.sort && before.sort === defaultSort(before.search))
    after.sort = defaultSort(after.search);
  return after;
}

// One collator for every comparison: localeCompare with options builds a new one per call (slow on large lists).
// Made at the first sort by name, not when the module loads: creating a collator loads locale data, a long task
// on a phone while the page starts (docs/performance.md, "Phones").
let nameCollator: Intl.Collator | undefined;
const byName = (a: ToolSummary, b: ToolSummary) =>
  (nameCollator ??= new Intl.Collator('en', { sensitivity: 'base' })).compare(a.name, b.name);
const popularity = (t: ToolSummary) => (typeof t.popularityScore === 'number' ? t.popularityScore : DEFAULT_POPULARITY);

/** The sorts of docs/product.md, Directory search; returns a new array. Keys are computed once per tool, not per
 *  comparison. Best match is the search's own order, so a list without one is in Most Popular order. */
export function sortTools(tools: ToolSummary[], sort: SortKey): ToolSummary[] {
  if (sort === 'alphabetical') return [...tools].sort(byName);
  const key = sort !== 'pricing' ? (t: ToolSummary) => -popularity(t) : (t: ToolSummary) => pricingRank(t.pricing);
  return tools
    .map((t) => ({ t, k: key(t) }))
    .sort((a, b) => a.k - b.k || byName(a.t, b.t))
    .map((x) => x.t);
}

export const PAGE_SIZES = [12, 24, 48, 96] as const;
export const DEFAULT_PAGE_SIZE = 24;

export function totalPages(count: number, pageSize: number): number {
  return Math.max(1, Math.ceil(count / pageSize));
}

/** The requested page, clamped to 1..total (anything unreadable is page 1). */
export function clampPage(page: number, total: number): number {
  if (!Number.isFinite(page)) return 1;
  return Math.min(Math.max(1, Math.floor(page)), Math.max(1, total));
}

/** Everything the home page's address says: the category, type, search and page, plus sort and page size
 *  (so that they work as a plain GET form without JavaScript too). Defaults are left out of the address. */
export interface ToolQuery {
  category: string;
  type: TypeFilter;
  /** Not in the page's address (its type filter carries free and paid); set by callers that filter both. */
  pricing?: PricingFilter;
  search: string;
  page: number;
  sort: SortKey;
  size: number;
}

export const DEFAULT_QUERY: ToolQuery = {
  category: 'All',
  type: 'all',
  search: '',
  page: 1,
  sort: 'popularity',
  size: DEFAULT_PAGE_SIZE,
};
/** Longer search text finds nothing more useful and only costs work. */
export const MAX_SEARCH_LENGTH = 200;

/** The parameters readToolQuery reads: the directory's address and GET /api/tools/query. */
export const TOOL_QUERY_PARAMS = ['search', 'category', 'type', 'sort', 'size', 'page'] as const;

export function readToolQuery(params: URLSearchParams): ToolQuery {
  const category = params.get('category') ?? '';
  const sort = params.get('sort') ?? '';
  const size = Number(params.get('size'));
  const page = Number.parseInt(params.get('page') ?? '1', 10);
  const search = (params.get('search') ?? '').slice(0, MAX_SEARCH_LENGTH);
  const known = SORT_OPTIONS.some((o) => o.value === sort) && (sort !== 'relevance' || search.trim() !== '');
  return {
    category: (CATEGORIES as readonly string[]).includes(category) ? category : 'All',
    type: parseTypeFilter(params.get('type')),
    search,
    page: Number.isFinite(page) ? page : 1,
    sort: known ? (sort as SortKey) : defaultSort(search),
    size: (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
  };
}

/** The query string for a query ('' when everything is default), keys in a stable order. */
export function toolQueryString(q: ToolQuery): string {
  const p = new URLSearchParams();
  if (q.category !== 'All') p.set('category', q.category);
  if (q.type !== 'all') p.set('type', q.type);
  if (q.search) p.set('search', q.search);
  if (q.sort !== defaultSort(q.search)) p.set('sort', q.sort);
  if (q.size !== DEFAULT_QUERY.size) p.set('size', String(q.size));
  if (q.page > 1) p.set('page', String(q.page));
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** How many of the most popular tools the home page names in its structured data. */
export const FEATURED_COUNT = 50;

/** What every query over one catalogue reuses: its orders (positions in the catalogue, sorted once on first use)
 *  and the most popular tools. Kept per catalogue array, never changed in place (see searchText.ts), so a query is
 *  one pass over a sorted list whatever the catalogue's size. */
interface CatalogueIndex {
  orders: Partial<Record<SortKey, number[]>>;
  featured: { name: string; slug: string }[];
}
const indexes = new WeakMap<readonly ToolSummary[], CatalogueIndex>();

function orderOf(catalogue: ToolSummary[], sort: SortKey): number[] {
  const position = new Map(catalogue.map((t, i) => [t, i]));
  return sortTools(catalogue, sort).map((t) => position.get(t)!);
}

function indexOf(catalogue: ToolSummary[]): CatalogueIndex {
  let index = indexes.get(catalogue);
  if (!index) {
    const popularity = orderOf(catalogue, 'popularity');
    const featured = popularity
      .slice(0, FEATURED_COUNT)
      .map((i) => ({ name: catalogue[i].name, slug: catalogue[i].slug }));
    index = { orders: { popularity }, featured };
    indexes.set(catalogue, index);
  }
  return index;
}

/** One page of a query's results: what the home page renders, bounded however large the catalogue grows. */
export interface ToolPage {
  tools: ToolSummary[];
  /** Matching tools in all. */
  total: number;
  /** The page shown, clamped to 1..pages. */
  page: number;
  pages: number;
  /** Tools in the whole catalogue (unfiltered). */
  catalogue: number;
  /** Only when a search found nothing: names and tags that would find something. */
  suggestions?: string[];
  /** The most popular tools (name and slug) for the page's structured data. */
  featured: { name: string; slug: string }[];
}

/**
 * Runs a query over the whole catalogue: search, category and type combined. `found`: the tools the search found,
 * best first (the API's ranking, api/src/tools/search.ts); the filters narrow them, and Best match keeps their
 * order while another sort orders them its way. Without it (the browser's built-in list when the API fails) the
 * search is the plain contains-match, in the chosen sort's order.
 */
export function queryTools(catalogue: ToolSummary[], q: ToolQuery, found?: readonly ToolSummary[]): ToolPage {
  const index = indexOf(catalogue);
  const search = q.search.trim().toLowerCase();
  const results: ToolSummary[] = [];
  if (search && found) {
    const kept = (t: ToolSummary) => passes(t, -1, null, '', q);
    if (q.sort === 'relevance') results.push(...found.filter(kept));
    else {
      const members = new Set(found);
      const order = (index.orders[q.sort] ??= orderOf(catalogue, q.sort));
      for (const i of order) if (members.has(catalogue[i]) && kept(catalogue[i])) results.push(catalogue[i]);
    }
  } else {
    const sort = q.sort === 'relevance' ? 'popularity' : q.sort;
    const order = (index.orders[sort] ??= orderOf(catalogue, sort));
    const text = searchTextOf(catalogue);
    for (const i of order) if (passes(catalogue[i], i, text, search, q)) results.push(catalogue[i]);
  }
  const page = clampPage(q.page, totalPages(results.length, q.size));
  return toolPage(catalogue, q, {
    tools: results.slice((page - 1) * q.size, page * q.size),
    total: results.length,
    page,
  });
}

/** A query's page from its tools, the count of all its results and the page's number (clamped already): what
 *  queryTools answers, and the api's search when the database has ranked and cut the page. */
export function toolPage(
  catalogue: ToolSummary[],
  q: ToolQuery,
  { tools, total, page }: { tools: ToolSummary[]; total: number; page: number },
): ToolPage {
  const suggestions = total === 0 && q.search.trim() ? didYouMean(q.search, catalogue) : undefined;
  return {
    tools,
    total,
    page,
    pages: totalPages(total, q.size),
    catalogue: catalogue.length,
    ...(suggestions ? { suggestions } : {}),
    featured: indexOf(catalogue).featured,
  };
}
