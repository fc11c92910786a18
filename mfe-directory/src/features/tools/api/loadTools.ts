import { toToolSummary, type Tool, type ToolSummary } from '@aitools/contracts/tools';
import { queryTools, toolQueryString, type ToolPage, type ToolQuery } from '@aitools/contracts/toolQuery';
import type { FetchJson, JsonResult } from '@aitools/platform';
import { HEALTH_LABELS, type HealthStatus } from '@aitools/contracts/checks';
import { FALLBACK_TOOLS } from './fallbackTools';

export interface ToolList {
  tools: ToolSummary[];
  source: 'api' | 'fallback';
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

function toSummary(item: unknown): ToolSummary | null {
  if (!isRecord(item) || typeof item.name !== 'string' || typeof item.slug !== 'string') return null;
  const summary = toToolSummary({
    ...(item as unknown as Tool),
    description: typeof item.description === 'string' ? item.description : '',
  });
  // An MCP server's tool names are searched too (contracts/searchText.ts): the browser's answers must match the API's.
  const mcpTools = Array.isArray(item.mcpTools) ? item.mcpTools.filter((t): t is string => typeof t === 'string') : [];
  // An inspected server's open findings: the card's badge and the "no open findings" filter read them.
  const openFindings =
    typeof item.openFindings === 'number' && Number.isInteger(item.openFindings) && item.openFindings >= 0
      ? { openFindings: item.openFindings }
      : {};
  // A remote server's last health check: the "healthy" filter reads it.
  const health =
    typeof item.health === 'string' && item.health in HEALTH_LABELS ? { health: item.health as HealthStatus } : {};
  return { ...summary, ...(mcpTools.length ? { mcpTools } : {}), ...openFindings, ...health };
}

/** A `tools` array, a `data` array when success is set, or a bare array; anything else is invalid (null; docs/product.md, API calls). */
export function readToolList(body: unknown): ToolSummary[] | null {
  let items: unknown[] | null = null;
  if (Array.isArray(body)) items = body;
  else if (isRecord(body) && Array.isArray(body.tools)) items = body.tools;
  else if (isRecord(body) && body.success && Array.isArray(body.data)) items = body.data;
  if (!items) return null;
  return items.map(toSummary).filter((t): t is ToolSummary => t !== null);
}

const fallbackList = (): ToolList => ({ tools: FALLBACK_TOOLS.map(toToolSummary), source: 'fallback' });

/** The directory list: the API's, or the built-in tools when the call fails or answers an invalid shape. */
export async function loadToolList(fetchJson: FetchJson): Promise<ToolList> {
  let res: JsonResult<unknown>;
  try {
    res = await fetchJson('/api/tools');
  } catch (err) {
    console.error('Error fetching AI tools:', err instanceof Error ? err.message : err);
    return fallbackList();
  }
  if (!res.ok) {
    console.error(`HTTP error! status: ${res.status}`);
    return fallbackList();
  }
  const tools = readToolList(res.body);
  if (!tools) {
    console.error('API response format is invalid');
    return fallbackList();
  }
  return { tools, source: 'api' };
}

/** What the home page shows: one page of the query's results, and where they came from. */
export interface HomePage extends ToolPage {
  source: ToolList['source'];
}

/** One page of results, from a whole list held in the browser (instant) or else from the API's query. */
export function pageOf(list: ToolList, q: ToolQuery): HomePage {
  return { ...queryTools(list.tools, q), source: list.source };
}

const isPage = (b: unknown): b is ToolPage =>
  isRecord(b) &&
  Array.isArray(b.tools) &&
  typeof b.total === 'number' &&
  typeof b.page === 'number' &&
  typeof b.pages === 'number' &&
  typeof b.catalogue === 'number';

/** One page of the directory from the API (GET /api/tools/query), or of the built-in tools when the call fails.
 *  An aborted call (a newer query took its place) rejects: nothing is shown for it. */
export async function loadToolPage(fetchJson: FetchJson, q: ToolQuery): Promise<HomePage> {
  try {
    const res = await fetchJson(`/api/tools/query${toolQueryString(q)}`);
    if (res.ok && isPage(res.body)) {
      const body = res.body;
      return {
        ...body,
        tools: readToolList(body.tools) ?? [],
        featured: Array.isArray(body.featured) ? body.featured : [],
        source: 'api',
      };
    }
    console.error(res.ok ? 'API response format is invalid' : `HTTP error! status: ${res.status}`);
  } catch (err) {
    if ((err as { name?: unknown } | null)?.name === 'AbortError') throw err;
    console.error('Error fetching AI tools:', err instanceof Error ? err.message : err);
  }
  return pageOf(fallbackList(), q);
}

export interface ToolLookup {
  slug: string;
  tool: Tool | null;
  /** Hidden by an editor (the API's 410): the page answers 410 Gone, and the built-in list is not consulted. */
  gone?: true;
}

/** One tool: the API's, or on a failed call (404 included) the built-in list searched by slug. */
export async function loadTool(fetchJson: FetchJson, slug: string): Promise<ToolLookup> {
  try {
    const res = await fetchJson(`/api/tools/${encodeURIComponent(slug)}`);
    if (res.ok && isRecord(res.body) && typeof res.body.slug === 'string')
      return { slug, tool: res.body as unknown as Tool };
    if (res.status === 410) return { slug, tool: null, gone: true };
    // A 404 is not logged; like any failure it falls through to the built-in list.
    else if (res.status !== 404) console.error(`HTTP error! status: ${res.status}`);
  } catch (err) {
    console.error('Error fetching AI tool:', err instanceof Error ? err.message : err);
  }
  return { slug, tool: FALLBACK_TOOLS.find((t) => t.slug === slug) ?? null };
}
