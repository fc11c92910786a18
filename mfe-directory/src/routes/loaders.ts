import { data, type LoaderFunctionArgs } from 'react-router-dom';
import { routeApi } from '@aitools/platform';
import { readToolQuery } from '@aitools/contracts/toolQuery';
import { loadTool, loadToolPage, pageOf, type HomePage, type ToolLookup } from '../features/tools/api/loadTools';
import { useToolListStore } from '../features/tools/stores/toolListStore';

/**
 * One page of the directory for the address's query; null when loading failed outright (docs/product.md, Directory: "Error Loading AI
 * Tools"). Two ways: a browser holding the whole (small) list answers a query without a search from it at once; a
 * search, the server, and a browser facing a large catalogue ask the API for just that page (a search is ranked by
 * the database's engine, so every place shows the same order: api/src/tools/search.ts). A newer navigation aborts
 * this one's request (`request.signal`), and React Router drops its answer.
 */
export async function homeLoader({ request, context }: LoaderFunctionArgs): Promise<HomePage | null> {
  const query = readToolQuery(new URL(request.url).searchParams);
  const whole = typeof window !== 'undefined' ? useToolListStore.getState().list : null;
  if (whole && !query.search.trim()) return pageOf(whole, query);
  const api = routeApi(context);
  try {
    return await loadToolPage((path) => api.fetchJson(path, { signal: request.signal }), query);
  } catch (err) {
    if (request.signal.aborted) throw err;
    console.error('Error loading AI tools:', err);
    return null;
  }
}

/** The whole tool, or not found with status 404 (410 for a hidden one). */
export async function toolLoader({ context, params }: LoaderFunctionArgs) {
  const lookup: ToolLookup = await loadTool(routeApi(context).fetchJson, params.slug ?? '');
  return data(lookup, { status: lookup.tool ? 200 : lookup.gone ? 410 : 404 });
}
