/**
 * The contract between the shell and a remote's route modules. A route module is the unit of a page: its data
 * (`loader`, run on the server for the first page and in the browser for in-app navigations), its form posts
 * (`action`), what it says about itself (`head`, from the loader's data) and what it shows (`Component`).
 * The shell runs these through React Router's data APIs on both sides; no route fetches its data in an effect.
 */
import type { ComponentType } from 'react';
import type { ActionFunctionArgs, LoaderFunctionArgs, Params, ShouldRevalidateFunctionArgs } from 'react-router-dom';
import type { Head } from './headTags';
import { fetchJson, type JsonResult } from './api';

/**
 * The version of this contract. A release records the version it was built against (release.json), and the
 * server runs only releases built against the shell's own version; bump it on any change a built remote could
 * not cope with (props, context, the shape of a route module or of ServerEntry, the router facade's exports).
 */
export const CONTRACT_VERSION = 1;

export type { JsonResult };

export interface JsonRequest {
  method?: 'GET' | 'POST';
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Aborts the call in the browser (a loader passes its request's signal); the server's in-process API ignores it. */
  signal?: AbortSignal;
}

/** The site's JSON API as loaders and actions see it: never throws for HTTP errors, reports them in `status`. */
export interface JsonApi {
  fetchJson<T = unknown>(path: string, init?: JsonRequest): Promise<JsonResult<T>>;
}

/** The one fetcher type of the pure data functions (a GET of a path): `JsonApi.fetchJson` fits it, in the browser
 *  and on the server, and a test passes a plain function. */
export type FetchJson = (path: string) => Promise<JsonResult<unknown>>;

/** What the server passes to loaders and actions as React Router's `context`: the API, called in process. */
export interface RouteServerContext {
  api: JsonApi;
}

const browserApi: JsonApi = {
  fetchJson: (path, init) =>
    fetchJson(path, {
      method: init?.method ?? 'GET',
      headers: init?.headers,
      signal: init?.signal,
      ...(init?.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    }),
};

/** The API for a loader or action: the server's in-process one, or fetch in the browser. */
export function routeApi(context: unknown): JsonApi {
  return (context as Partial<RouteServerContext> | undefined)?.api ?? browserApi;
}

export interface HeadArgs<D> {
  data: D;
  /** The page address. */
  url: URL;
  params: Params;
}

/** Props the shell gives a route component: its loader's data. */
export interface RouteProps<D = unknown> {
  data: D;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a route table holds modules of different data types
export interface RouteModule<D = any> {
  Component: ComponentType<RouteProps<D>>;
  loader?: (args: LoaderFunctionArgs) => Promise<unknown> | unknown;
  action?: (args: ActionFunctionArgs) => Promise<unknown> | unknown;
  head?: (args: HeadArgs<D>) => Head;
  /** E.g. the directory filters its list in the browser, so a new query needs no new data. */
  shouldRevalidate?: (args: ShouldRevalidateFunctionArgs) => boolean;
  /** Shown in place of the page while an in-app navigation to this route loads (the loading states of docs/product.md),
   *  with the route's params (a post's slug for its loading title). */
  Pending?: ComponentType<{ params: Record<string, string | undefined> }>;
}

/** The default export of a remote's server entry: exposed name (as in the federation config) -> route module. */
export interface ServerEntry {
  remote: string;
  routes: Record<string, RouteModule>;
}

/** Names a route module object for its remote; the exposed module's default export. */
export function defineRoute<D>(route: RouteModule<D>): RouteModule<D> {
  return route;
}

/** One route module's entry of a release's `client/preload.json` (written by its build, read by the server to list a
 *  page's code in one wave): the files its code needs, relative to the release's client folder. The shared packages
 *  are the shell's, in its start-up chunks. */
export interface RoutePreload {
  files: string[];
}
