import { compilePattern, matchPage } from '@aitools/platform/route-match';
import { REMOTE_ROUTES, SHELL_ROUTES, type RemoteRouteDef } from './routes';

export type RouteMatch =
  | { kind: 'remote'; route: RemoteRouteDef; params: Record<string, string | undefined> }
  | { kind: 'admin' }
  | { kind: 'not-found' };

const REMOTE_ROUTE_OF = new Map(REMOTE_ROUTES.map((route) => [route.path, route]));
const isAdmin = compilePattern(SHELL_ROUTES.admin);

/** The server's view of the route table: which screen a path gets. */
export function matchRoute(pathname: string): RouteMatch {
  const page = matchPage(pathname);
  if (page) return { kind: 'remote', route: REMOTE_ROUTE_OF.get(page.route.path)!, params: page.params };
  if (isAdmin(pathname)) return { kind: 'admin' };
  return { kind: 'not-found' };
}
