import { create } from 'zustand';
import { routeApi } from '@aitools/platform';
import { loadToolList, type ToolList } from '../api/loadTools';

/** Up to this many tools, the browser fetches the whole list once (about 110 kB gzip at 1,000) and filters it at each
 *  keystroke without a request; a larger catalogue is queried page by page on the server. */
export const LOCAL_QUERY_LIMIT = 1_000;

/** The whole tool list, when this browser tab holds it: queries then answer at once, and returning to / in-app
 *  (e.g. Back from a tool) renders without a request. The server never writes it. */
export const useToolListStore = create<{ list: ToolList | null }>(() => ({ list: null }));

let loading: Promise<void> | null = null;

/** Fetches the whole list once for a small catalogue (on the visitor's first use of the controls, not on every
 *  page view). The built-in fallback is never kept: the next query asks the API again. */
export function loadWholeList(catalogueSize: number): Promise<void> {
  if (useToolListStore.getState().list || catalogueSize > LOCAL_QUERY_LIMIT) return Promise.resolve();
  loading ??= loadToolList(routeApi(undefined).fetchJson)
    .then((list) => {
      if (list.source === 'api') useToolListStore.setState({ list });
    })
    .finally(() => {
      loading = null;
    });
  return loading;
}

export function forgetToolList(): void {
  useToolListStore.setState({ list: null });
}
