import { data, type LoaderFunctionArgs } from 'react-router-dom';
import { routeApi } from '@aitools/platform';
import { loadTool, loadToolList, type ToolList, type ToolLookup } from '../lib/loadTools';
import { useToolListStore } from '../lib/toolListStore';

/** The home list: null when loading failed outright (the spec's "Error Loading AI Tools"). In the browser, the list
 *  already loaded in this tab is reused (Back to / renders at once); the server always asks the API. */
export async function homeLoader({ context }: LoaderFunctionArgs): Promise<ToolList | null> {
  const remembered = typeof window !== 'undefined' ? useToolListStore.getState().list : null;
  if (remembered) return remembered;
  try {
    return await loadToolList(routeApi(context).fetchJson);
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
