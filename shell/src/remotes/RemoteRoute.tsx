import { useEffect } from 'react';
import {
  isRouteErrorResponse,
  useLocation,
  useLoaderData,
  useParams,
  useRevalidator,
  useRouteError,
  type Params,
  type RouteObject,
} from 'react-router-dom';
import { SITE_NAME, useHead, type JsonApi } from '@aitools/platform';
import { isChunkLoadError } from './ChunkLoadError';
import { useModuleSource, type ModuleSource } from './moduleSource';
import { RemoteFailure } from './RemoteBoundary';
import { RouteReady } from './RouteReady';
import { reportSignal } from './signals';
import { RouterErrorScreen } from '../screens/ErrorScreens';
import { NotFound } from '../screens/NotFound';
import { siteOrigin } from './siteOrigin';
import type { RouteEntry } from '@aitools/platform/routes';

export interface RemoteRouteDef extends Omit<RouteEntry, 'existsAt'> {
  /** For a param route: whether its thing exists, asked of the API when the remote itself could not answer on the
   *  server (so an unknown tool or post is a 404 whatever state its remote is in). */
  exists?: (params: Params, api: JsonApi) => Promise<boolean>;
}

export interface RemoteHandle {
  remote: string;
  module: string;
}

export const routeIdOf = (def: Pick<RemoteRouteDef, 'remote' | 'module'>) =>
  `${def.remote}/${def.module.replace(/^\.\//, '')}`;

/** One remote route as a React Router route object: the shell's loader loads the remote's module, then runs the
 *  module's own loader; the same object serves the server render and in-app navigations. */
export function remoteRoute(def: RemoteRouteDef, source: ModuleSource): RouteObject {
  const { remote, module } = def;
  return {
    id: routeIdOf(def),
    path: def.path,
    handle: { remote, module } satisfies RemoteHandle,
    loader: async (args) => {
      const mod = await source.load(remote, module);
      return mod.loader ? mod.loader(args) : null;
    },
    action: async (args) => {
      const mod = await source.load(remote, module);
      if (!mod.action) throw new Response('Method Not Allowed', { status: 405, statusText: 'Method Not Allowed' });
      return mod.action(args);
    },
    shouldRevalidate: (args) => source.get(remote, module)?.shouldRevalidate?.(args) ?? args.defaultShouldRevalidate,
    element: <RemoteView remote={remote} module={module} />,
    errorElement: <RemoteError remote={remote} />,
    HydrateFallback: RemoteLoading,
  };
}

export function RemoteLoading() {
  return (
    <div className="remote-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>Loading…</span>
    </div>
  );
}

function RemoteView({ remote, module }: RemoteHandle) {
  const source = useModuleSource();
  const data = useLoaderData();
  const location = useLocation();
  const params = useParams();
  const mod = source.get(remote, module);
  // The loader resolved the module; without it (never expected) the page head still names the site. The path is
  // appended to the origin: one that starts with `//` (the router matches `///` as `/`) names no host.
  const url = new URL(new URL(siteOrigin()).origin + location.pathname + location.search);
  const head = mod?.head?.({ data, url, params }) ?? {
    title: SITE_NAME,
  };
  useHead(head);
  if (!mod) return <RemoteLoading />;
  const { Component } = mod;
  return (
    <>
      {/* keyed by pathname: another tool or post is a fresh page; a new query is not */}
      <Component key={location.pathname} data={data} />
      <RouteReady />
    </>
  );
}

/** A remote route that failed: the remote boundary with "Try again" for load failures, the router screen otherwise. */
function RemoteError({ remote }: { remote: string }) {
  const error = useRouteError();
  const source = useModuleSource();
  const revalidator = useRevalidator();
  useHead({ title: SITE_NAME, robots: 'noindex' });
  // A failure of the remote's release (not an answer such as a 404): reported for the release the page named.
  useEffect(() => {
    if (!isRouteErrorResponse(error)) reportSignal(isChunkLoadError(error) ? 'load-error' : 'boundary', remote, error);
  }, [error, remote]);
  // The server found the route's thing missing while its remote could not answer (see serverBudget.ts).
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  if (!isChunkLoadError(error)) return <RouterErrorScreen error={error} />;
  return (
    <>
      <RemoteFailure
        error={error}
        attempt={source.attempts?.(remote) ?? 0}
        busy={revalidator.state === 'loading'}
        onRetry={() => {
          source.retry?.(remote);
          void revalidator.revalidate();
        }}
      />
      {/* the browser shows the boundary: this route's screen is settled */}
      <RouteReady />
    </>
  );
}
