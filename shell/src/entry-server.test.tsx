import { data } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import type { JsonApi } from '@aitools/platform';
import { renderRequest } from './entry-server';
import type { RemoteGuard } from '../contract/serverContract';

vi.mock('./remotes/federation', () => ({ importExposed: vi.fn() }));

const api: JsonApi = {
  fetchJson: async (path) => {
    const missing = path.endsWith('/nope');
    return { ok: !missing, status: missing ? 404 : 200, body: null };
  },
};

/** The blog's post route from a release whose component throws while the server renders it. */
const throwing = {
  loader: async ({ params }: { params: { slug?: string } }) =>
    params.slug === 'nope' ? data({ post: null }, { status: 404 }) : { post: { title: 'A post' } },
  Component: () => {
    throw new Error('boom in render');
  },
};
const working = { ...throwing, Component: () => <p>The post</p> };

function spyGuard(): RemoteGuard & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    allow: () => true,
    success: (r) => void calls.push(`success ${r}`),
    failure: (r) => void calls.push(`failure ${r}`),
  };
}

const render = (path: string, mod: object, guard: RemoteGuard, onNotRendered = vi.fn(), budgetMs = 5_000) =>
  renderRequest({
    request: new Request(`http://localhost${path}`),
    api,
    budgetMs,
    guard,
    importModule: async () => mod,
    onNotRendered,
  });

describe("a remote's component that throws on the server", () => {
  it('is given up: 503 with the shell frame and the route boundary, a failure of its remote, left to the browser', async () => {
    const guard = spyGuard();
    const onNotRendered = vi.fn();
    const result = await render('/blog/a-post', throwing, guard, onNotRendered);
    if (result.kind !== 'page') throw new Error('expected a page');
    expect(result.status).toBe(503);
    expect(result.html).toContain('This section is temporarily unavailable');
    expect(result.html).toContain('<footer');
    expect(result.notRendered).toEqual({ 'blog/BlogPost': 'error' });
    expect(guard.calls).toEqual(['failure blog']);
    expect(onNotRendered).toHaveBeenCalledWith(
      expect.objectContaining({ id: 'blog/BlogPost', remote: 'blog' }),
      'error',
      expect.objectContaining({ message: 'boom in render' }),
    );
    expect(result.hydration).toMatchObject({ errors: { 'blog/BlogPost': { name: 'ChunkLoadError' } } });
  });

  it('keeps an unknown post a 404', async () => {
    const result = await render('/blog/nope', throwing, spyGuard());
    if (result.kind !== 'page') throw new Error('expected a page');
    expect(result.status).toBe(404);
    expect(result.html).toContain('Page Not Found');
  });

  it("counts as a failure in a row of its remote (the server's breaker opens after enough of them)", async () => {
    let inARow = 0;
    const guard: RemoteGuard = { allow: () => true, success: () => void (inARow = 0), failure: () => void inARow++ };
    for (let i = 0; i < 3; i++) await render('/blog/a-post', throwing, guard);
    expect(inARow).toBe(3);
  });

  it('a component that renders is the success of its remote, once rendered', async () => {
    const guard = spyGuard();
    const result = await render('/blog/a-post', working, guard);
    if (result.kind !== 'page') throw new Error('expected a page');
    expect(result.status).toBe(200);
    expect(result.html).toContain('The post');
    expect(guard.calls).toEqual(['success blog']);
  });

  it('a render that runs past the budget is served, and a failure of its remote (it held the whole server)', async () => {
    const guard = spyGuard();
    let until = 0;
    const stalling = {
      ...working,
      loader: async () => ((until = Date.now() + 60), { post: { title: 'A post' } }),
      Component: () => {
        while (Date.now() <= until);
        return <p>The post, late</p>;
      },
    };
    const result = await render('/blog/a-post', stalling, guard, vi.fn(), 50);
    if (result.kind !== 'page') throw new Error('expected a page');
    expect(result.status).toBe(200);
    expect(result.html).toContain('The post, late');
    expect(guard.calls).toEqual(['failure blog']);
  });
});
