import { match } from 'path-to-regexp';
import { REMOTE_ROUTES, SHELL_ROUTES, type RemoteRouteDef } from './routes';

export type RouteMatch =
  | { kind: 'remote'; route: RemoteRouteDef; params: Record<string, string | undefined> }
  | { kind: 'admin' }
  | { kind: 'not-found' };

// Compiled once: the server asks this for every answer it counts and every page it serves, and compiling the
// table's patterns on each call took about a fifth of the server's time under cached load (a CPU profile).
// It matches as React Router's matchPath does (case-insensitive, an optional trailing slash, parameters as sent but
// for an encoded slash); routeMatch.test.ts holds the two side by side.
const toMatcher = (path: string) =>
  match<Record<string, string>>(path, {
    sensitive: false,
    end: true,
    trailing: true,
    decode: (v) => v.replace(/%2F/g, '/'),
  });
const REMOTE_MATCHERS = REMOTE_ROUTES.map((route) => ({ route, match: toMatcher(route.path) }));
const ADMIN_MATCHER = toMatcher(SHELL_ROUTES.admin);

/** The server's view of the route table: which screen a path gets. */
export function matchRoute(pathname: string): RouteMatch {
  for (const { route, match } of REMOTE_MATCHERS) {
    const m = match(pathname);
    if (m) return { kind: 'remote', route, params: m.params };
  }
  if (ADMIN_MATCHER(pathname)) return { kind: 'admin' };
  return { kind: 'not-found' };
}
