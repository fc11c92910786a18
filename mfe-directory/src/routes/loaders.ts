import type { LoadResult, RouteContext } from '@aitools/platform';
import { loadTool, loadToolList, type ToolList, type ToolLookup } from '../lib/loadTools';

/** Server: the home page renders the list's first page for the URL's query from this data. */
export async function loadHome(ctx: RouteContext): Promise<LoadResult<ToolList>> {
  return { data: await loadToolList(ctx.fetchJson) };
}

/** Server: the whole tool, or not found with status 404. */
export async function loadToolDetail(ctx: RouteContext): Promise<LoadResult<ToolLookup>> {
  const lookup = await loadTool(ctx.fetchJson, ctx.params.slug ?? '');
  return { data: lookup, status: lookup.tool ? 200 : 404 };
}
