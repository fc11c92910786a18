import { data, type LoaderFunction, type LoaderFunctionArgs, type RouteObject } from 'react-router-dom';
import type { JsonApi } from '@aitools/platform';
import { ChunkLoadError } from './ChunkLoadError';
import { chunkId } from './loadRemote';
import type { RemoteHandle, RemoteRouteDef } from './RemoteRoute';
import type { NotRenderedReason, RemoteGuard } from '../../contract/serverContract';

/** Why a route was not rendered on the server (the browser renders it from scratch). */
export type { NotRenderedReason, RemoteGuard };

export interface ServerBudget {
  /** When the route's server work must be done (epoch ms). */
  deadline: number;
  guard?: RemoteGuard;
  api: JsonApi;
  /** Told about each route given up on the server. */
  onNotRendered(route: { id: string; remote: string; module: string }, reason: NotRenderedReason, err: unknown): void;
}

/** A loader's answer that is the remote working as meant (a redirect, a 404 thrown as data), not a failure. */
function isRouteAnswer(err: unknown): boolean {
  return (
    err instanceof Response ||
    (typeof err === 'object' && err !== null && (err as { type?: unknown }).type === 'DataWithResponseInit')
  );
}

const TIMEOUT = Symbol('timeout');

/** What a remote route the server gave up on throws: a ChunkLoadError from `server:<remote>`, which the page answers
 *  with 503 around the route's boundary and the browser renders from scratch. */
export const serverGaveUp = (remote: string, module: string, type: 'timeout' | 'error' = 'error') =>
  new ChunkLoadError(chunkId(remote, module), type, `server:${remote}`);

/**
 * Bounds each remote route's server work (loading its module and running its loader) by the deadline, and skips
 * it at once while its remote's breaker is open. A route given up is a ChunkLoadError from `server:<remote>`: the
 * page is served with the shell frame and that route's boundary, status 503, and the browser renders the route
 * from scratch. A param route whose thing does not exist is still a 404, whatever state the remote is in.
 */
export function withServerBudget(
  routes: RouteObject[],
  defs: readonly RemoteRouteDef[],
  budget: ServerBudget,
): RouteObject[] {
  return routes.map((route) => {
    const handle = route.handle as RemoteHandle | undefined;
    const def = handle && defs.find((d) => d.remote === handle.remote && d.module === handle.module);
    const children = route.children && withServerBudget(route.children, defs, budget);
    if (!def || typeof route.loader !== 'function') return children ? { ...route, children } : route;
    return { ...route, loader: budgeted(route.id ?? def.path, def, route.loader, budget) } as RouteObject;
  });
}

function budgeted(id: string, def: RemoteRouteDef, loader: LoaderFunction, budget: ServerBudget): LoaderFunction {
  const { remote, module } = def;
  const giveUp = async (args: LoaderFunctionArgs, reason: NotRenderedReason, err: unknown): Promise<never> => {
    budget.onNotRendered({ id, remote, module }, reason, err);
    if (def.exists && !(await def.exists(args.params, budget.api)))
      throw data(null, { status: 404, statusText: 'Not Found' });
    throw serverGaveUp(remote, module, reason === 'timeout' ? 'timeout' : 'error');
  };
  return async (args) => {
    if (budget.guard && !budget.guard.allow(remote)) return giveUp(args, 'breaker-open', null);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<typeof TIMEOUT>(
      (resolve) => (timer = setTimeout(() => resolve(TIMEOUT), Math.max(0, budget.deadline - Date.now()))),
    );
    let failed: { reason: NotRenderedReason; err: unknown };
    try {
      const result = await Promise.race([Promise.resolve(loader(args)), timeout]);
      if (result !== TIMEOUT) {
        budget.guard?.success(remote);
        return result;
      }
      failed = { reason: 'timeout', err: null };
    } catch (err) {
      if (isRouteAnswer(err)) {
        budget.guard?.success(remote);
        throw err;
      }
      failed = { reason: 'error', err };
    } finally {
      clearTimeout(timer);
    }
    budget.guard?.failure(remote);
    return giveUp(args, failed.reason, failed.err);
  };
}
