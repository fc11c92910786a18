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

describe("a param route's existence check", () => {
  it('counts a clear 404 or 410 (a hidden tool) as missing, and anything else as there', async () => {
    const tool = REMOTE_ROUTES.find((r) => r.path === '/tool/:slug')!;
    const api = (status: number) => ({ fetchJson: vi.fn(async () => ({ ok: status === 200, status, body: null })) });
    const answers: Record<number, boolean> = {};
    for (const status of [200, 404, 410, 500])
      answers[status] = await tool.exists!({ slug: 'x' }, api(status) as never);
    expect(answers).toEqual({ 200: true, 404: false, 410: false, 500: true });
  });
});
