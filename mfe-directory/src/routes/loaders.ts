import { data, type LoaderFunctionArgs } from 'react-router-dom';
import { routeApi } from '@aitools/platform';
import { readToolQuery } from '@aitools/contracts/toolQuery';
import { loadTool, loadToolPage, pageOf, type HomePage, type ToolLookup } from '../features/tools/api/loadTools';
import { useToolListStore } from '../features/tools/stores/toolListStore';
import { askPage } from '../features/listing/pageAnswers';

/**
 * One page of the directory for the address's query; null when loading failed outright (docs/product.md, Directory:
 * "Error Loading AI Tools"). The server and a browser without the whole list ask the API for just that page, so the page and its
 * data stay small however large the catalogue grows; a browser holding the whole (small) list answers at once.
 */
export async function homeLoader({ request, context }: LoaderFunctionArgs): Promise<HomePage | null> {
  const query = readToolQuery(new URL(request.url).searchParams);
  const browser = typeof window !== 'undefined';
  const whole = browser ? useToolListStore.getState().list : null;
  if (whole) return pageOf(whole, query);
  try {
    // In the browser, the page the visitor's change already asked for (features/listing/pageAnswers.ts).
    return await (browser ? askPage(query) : loadToolPage(routeApi(context).fetchJson, query));
  } catch (err) {
    console.error('Error loading AI tools:', err);
    return null;
  }
}

/** The whole tool, or not found with status 404. */
export async function toolLoader({ context, params }: LoaderFunctionArgs) {
  const lookup: ToolLookup = await loadTool(routeApi(context).fetchJson, params.slug ?? '');
  return data(lookup, { status: lookup.tool ? 200 : 404 });
}
