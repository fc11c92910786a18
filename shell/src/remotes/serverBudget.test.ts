import { createStaticHandler, data, type RouteObject } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import type { JsonApi } from '@aitools/platform';
import { isChunkLoadError } from './ChunkLoadError';
import { withServerBudget, type RemoteGuard } from './serverBudget';
import type { RemoteRouteDef } from './RemoteRoute';

vi.mock('./federation', () => ({ importExposed: vi.fn() }));

const def: RemoteRouteDef = {
  path: '/tool/:slug',
  remote: 'directory',
  module: './ToolDetail',
  query: ['os'],
  exists: async (p, api) => (await api.fetchJson(`/api/tools/${p.slug}`)).status !== 404,
};
const known: JsonApi = {
  fetchJson: async (path) => ({ ok: !path.endsWith('/nope'), status: path.endsWith('/nope') ? 404 : 200, body: null }),
};

async function run(
  loader: () => unknown,
  path = '/tool/cursor',
  opts: { budgetMs?: number; guard?: RemoteGuard } = {},
) {
  const notRendered: string[] = [];
  const routes: RouteObject[] = [
    {
      id: 'root',
      children: [
        {
          id: 'directory/ToolDetail',
          path: def.path,
          handle: { remote: 'directory', module: './ToolDetail' },
          loader,
          hasErrorBoundary: true,
          ErrorBoundary: () => null,
        },
      ],
    },
  ];
  const handler = createStaticHandler(
    withServerBudget(routes, [def], {
      deadline: Date.now() + (opts.budgetMs ?? 5_000),
      guard: opts.guard,
      api: known,
      onNotRendered: (_r, reason) => notRendered.push(reason),
    }),
  );
  const context = await handler.query(new Request(`http://x${path}`));
  if (context instanceof Response) throw new Error('unexpected response');
  return { context, notRendered, error: context.errors?.['directory/ToolDetail'] };
}

describe('the server render budget', () => {
  it('gives up on a loader that never resolves after the budget: the route is marked not rendered', async () => {
    const { context, notRendered, error } = await run(() => new Promise(() => {}), '/tool/cursor', { budgetMs: 50 });
    expect(notRendered).toEqual(['timeout']);
    expect(isChunkLoadError(error) && error.type === 'timeout' && error.request).toBe('server:directory');
    expect(context.loaderData['directory/ToolDetail']).toBeUndefined();
  });

  it('answers 404 for an unknown thing whatever state the remote is in (hung, failing, breaker open)', async () => {
    const closedGuard: RemoteGuard = { allow: () => false, success: vi.fn(), failure: vi.fn() };
    for (const [loader, guard] of [
      [() => new Promise(() => {}), undefined],
      [() => Promise.reject(new Error('boom')), undefined],
      [() => 'never run', closedGuard],
    ] as const) {
      const { context, error } = await run(loader, '/tool/nope', { guard, budgetMs: 200 });
      expect(context.statusCode).toBe(404);
      expect(error).toMatchObject({ status: 404 });
    }
    expect(closedGuard.failure).not.toHaveBeenCalled();
  });

  it('tells the breaker about failures and successes; a loader answer (404 data) is a success', async () => {
    const guard = { allow: vi.fn(() => true), success: vi.fn(), failure: vi.fn() };
    await run(() => Promise.reject(new Error('boom')), '/tool/cursor', { guard });
    expect(guard.failure).toHaveBeenCalledWith('directory');
    await run(
      () => {
        throw data(null, { status: 404 });
      },
      '/tool/cursor',
      { guard },
    );
    const ok = await run(() => ({ tool: 'cursor' }), '/tool/cursor', { guard });
    expect(guard.success).toHaveBeenCalledTimes(2);
    expect(ok.context.loaderData['directory/ToolDetail']).toEqual({ tool: 'cursor' });
    expect(ok.notRendered).toEqual([]);
  });

  it('skips the remote at once while its breaker is open', async () => {
    const loader = vi.fn(() => 'x');
    // On a clock that does not move: an answer that waited for any part of the budget would never come.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      let result: Awaited<ReturnType<typeof run>> | undefined;
      void run(loader, '/tool/cursor', {
        budgetMs: 5_000,
        guard: { allow: () => false, success: vi.fn(), failure: vi.fn() },
      }).then((r) => (result = r));
      await new Promise((r) => setImmediate(r));
      expect(result, 'answered without waiting').toBeDefined();
      expect(loader).not.toHaveBeenCalled();
      expect(result!.notRendered).toEqual(['breaker-open']);
      expect(isChunkLoadError(result!.error)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
