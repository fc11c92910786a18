import { matchPath } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { matchRoute } from './routeMatch';
import { REMOTE_ROUTES, SHELL_ROUTES } from './routes';

vi.mock('./remotes/federation', () => ({ importExposed: vi.fn() }));

/** React Router's own matching, pattern by pattern: what the browser's router decides for the same path. */
function routerMatch(pathname: string) {
  for (const route of REMOTE_ROUTES) {
    const m = matchPath({ path: route.path, end: true }, pathname);
    if (m) return { kind: 'remote', remote: route.remote, module: route.module, params: m.params };
  }
  return matchPath({ path: SHELL_ROUTES.admin, end: true }, pathname) ? { kind: 'admin' } : { kind: 'not-found' };
}

const PATHS = [
  '/',
  '/tool/cursor',
  '/tool/cursor/',
  '/TOOL/Cursor',
  '/tool/claude%20code',
  '/tool/caf%C3%A9',
  '/tool/a%2Fb',
  '/tool/',
  '/tool',
  '/tool/a/b',
  '/blog',
  '/blog/',
  '/blog/what-is-model-context-protocol-mcp',
  '/Blog',
  '/submit',
  '/contact',
  '/advertise',
  '/privacy',
  '/terms',
  '/cookies',
  '/cookies/x',
  SHELL_ROUTES.admin,
  '/api/tools',
  '/nope',
  '//tool/x',
];

describe('matchRoute', () => {
  it.each(PATHS)('decides %s as React Router does', (pathname) => {
    const ours = matchRoute(pathname);
    const shaped =
      ours.kind === 'remote'
        ? { kind: 'remote', remote: ours.route.remote, module: ours.route.module, params: ours.params }
        : { kind: ours.kind };
    expect(shaped).toEqual(routerMatch(pathname));
  });
});
