import { createContext, useContext, type ComponentType } from 'react';
import type { RemoteManifest } from './manifest';

/** What the server wrote into the page (script#__PAGE_STATE__) and the browser reads before hydrating. */
export interface PageState {
  /** path + search the page was rendered for; its data belongs to this address only. */
  url: string;
  /** The releases the page was rendered with; the browser loads exactly these. */
  releases: RemoteManifest;
  /** The route loader's data, for `url`. */
  data?: unknown;
}

/** Server: the remote route's component, imported from the release's server entry (absent if that failed). */
export interface ServerRemote {
  remote: string;
  module: string;
  Component?: ComponentType<{ data?: unknown }>;
  data?: unknown;
}

export interface PageContextValue {
  releases: RemoteManifest;
  /** Browser: the server's data, taken once by the route rendered for its address. */
  takeInitialData: (url: string) => unknown;
  /** Server only. */
  server?: ServerRemote;
}

export const PageContext = createContext<PageContextValue | null>(null);

export function usePage(): PageContextValue {
  const ctx = useContext(PageContext);
  if (!ctx) throw new Error('usePage must be used within a PageContext provider');
  return ctx;
}

export const PAGE_STATE_ID = '__PAGE_STATE__';

/** Browser: data is handed out once, for the address it was rendered for; later navigations load their own. */
export function browserPageContext(state: PageState): PageContextValue {
  let pending: { url: string; data: unknown } | null = { url: state.url, data: state.data };
  return {
    releases: state.releases,
    takeInitialData(url) {
      if (!pending || pending.url !== url) {
        pending = null;
        return undefined;
      }
      const { data } = pending;
      pending = null;
      return data;
    },
  };
}
