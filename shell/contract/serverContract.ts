/**
 * What the shell's server build (`@aitools/shell/server`, built from entry-server.tsx) gives the api, which renders
 * pages with it. The api imports these types by name; entry-server.tsx is checked against them (`satisfies`), so the
 * two cannot drift apart. Types only: importing this file brings no shell code into the api.
 */
import type { Head } from '@aitools/platform/head-tags';
import type { JsonApi } from '@aitools/platform/contract';

/** Why a route was left for the browser to render. */
export type NotRenderedReason = 'timeout' | 'breaker-open' | 'error';

/** The server's per-remote circuit breaker, as the render sees it. */
export interface RemoteGuard {
  allow(remote: string): boolean;
  success(remote: string): void;
  failure(remote: string): void;
}

export interface RenderInput {
  request: Request;
  /** Imports a remote's route module for this request (from its active release's server entry). */
  importModule: (remote: string, module: string) => Promise<unknown>;
  /** The site's API, called in process. */
  api: JsonApi;
  /** Each remote route's server work (module and loader) must be done within this many ms. */
  budgetMs: number;
  /** The per-remote circuit breaker. */
  guard?: RemoteGuard;
  /** Called for each route not rendered on the server (the browser renders it). */
  onNotRendered?: (
    route: { id: string; remote: string; module: string },
    reason: NotRenderedReason,
    err: unknown,
  ) => void;
}

export type RenderResult =
  | { kind: 'response'; response: Response }
  /** `hydration`: the router state the browser hydrates from (JSON, inlined into the page). */
  | {
      kind: 'page';
      status: number;
      html: string;
      head: Head | null;
      hydration: unknown;
      notRendered: Record<string, NotRenderedReason>;
    };

/** The server's view of the route table: which screen a path gets. */
export type RouteMatch =
  | {
      kind: 'remote';
      route: { path: string; remote: string; module: string };
      params: Record<string, string | undefined>;
    }
  | { kind: 'admin' }
  | { kind: 'not-found' };

export interface ShellServer {
  /** Runs a request through the route table (loaders, a form post's action) and renders the page. */
  renderRequest(input: RenderInput): Promise<RenderResult>;
  matchRoute(pathname: string): RouteMatch;
  /** The inline script that sets the theme before first paint (allowed by the CSP by its hash). */
  themeBootScript(): string;
  /** The inline script that starts the page's code after its first paint (allowed by the CSP by its hash). */
  pageCodeBootScript(): string;
  /** The id of the page-state script element the browser reads. */
  PAGE_STATE_ID: string;
  /** The id of the JSON list of the page's code the boot script reads: the entry first, then modules to preload. */
  PAGE_CODE_ID: string;
}
