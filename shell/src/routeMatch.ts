import { matchPath } from 'react-router-dom';
import { REMOTE_ROUTES, SHELL_ROUTES, type RemoteRouteDef } from './routes';

export type RouteMatch =
  | { kind: 'remote'; route: RemoteRouteDef; params: Record<string, string | undefined> }
  | { kind: 'admin' }
  | { kind: 'not-found' };

/** The server's view of the route table: which screen a path gets. */
export function matchRoute(pathname: string): RouteMatch {
  for (const route of REMOTE_ROUTES) {
    const m = matchPath({ path: route.path, end: true }, pathname);
    if (m) return { kind: 'remote', route, params: m.params };
  }
  if (matchPath({ path: SHELL_ROUTES.admin, end: true }, pathname)) return { kind: 'admin' };
  return { kind: 'not-found' };
}
