import type { ComponentType } from 'react';

/** What a remote's route loader receives on the server (and could receive in the browser). */
export interface RouteContext {
  params: Record<string, string | undefined>;
  /** The page address, e.g. https://host/tool/cursor?x=1 */
  url: URL;
  /** Fetch JSON from the site's API; never throws for HTTP errors, reports them in `status`. */
  fetchJson: <T = unknown>(path: string) => Promise<{ ok: boolean; status: number; body: T | null }>;
}

/** A loader's answer: the data the route renders from, and the HTTP status of the page. */
export interface LoadResult<D> {
  data: D;
  status?: number;
}

/** Props the shell gives a remote route component. `data` is the server's loader result for the
 *  address the page was rendered at; on later in-app navigations it is undefined and the route loads its own data. */
export interface RouteProps<D = unknown> {
  data?: D;
}

export interface RouteModule<D = unknown> {
  Component: ComponentType<RouteProps<D>>;
  load?: (ctx: RouteContext) => Promise<LoadResult<D>>;
}

/** The default export of a remote's server entry: exposed name (as in the federation config) -> route module. */
export interface ServerEntry {
  remote: string;
  routes: Record<string, RouteModule<any>>;
}
