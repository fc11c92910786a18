import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, Link, Outlet, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RouteModule } from '@aitools/platform';
import { PageOrPending, PENDING_AFTER_MS } from './PageOrPending';
import { SourceContext, type ModuleSource } from './moduleSource';

// The module source's file loads federated code; this test gives its own source.
vi.mock('./federation', () => ({ importExposed: vi.fn() }));

/** The blog's post route (a path of the site's route table) whose data arrives when the test says. */
function renderSite() {
  let release!: () => void;
  const data = new Promise<void>((resolve) => (release = resolve));
  const post: RouteModule = {
    Component: () => <h1>The post</h1>,
    Pending: ({ params }) => <p role="status">Loading {params.slug}</p>,
  };
  const source: ModuleSource = { get: () => post, load: async () => post };
  const router = createMemoryRouter(
    [
      {
        element: (
          <PageOrPending>
            <Outlet />
          </PageOrPending>
        ),
        children: [
          { path: '/blog', element: <Link to="/blog/a-post">Open the post</Link> },
          { path: '/blog/:slug', loader: () => data.then(() => null), element: <h1>The post</h1> },
        ],
      },
    ],
    { initialEntries: ['/blog'] },
  );
  render(
    <SourceContext.Provider value={source}>
      <RouterProvider router={router} />
    </SourceContext.Provider>,
  );
  return { release };
}

/** The clock moves on by `ms` (fake timers: the test decides what time it is, never the machine's speed). */
const wait = (ms: number) => act(async () => void (await vi.advanceTimersByTimeAsync(ms)));

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('PageOrPending', () => {
  it("keeps the page during a quick navigation, then shows the next page's loading screen until its data is here", async () => {
    const { release } = renderSite();
    await act(async () => screen.getByRole('link', { name: 'Open the post' }).click());
    await wait(PENDING_AFTER_MS - 1);
    expect(screen.getByRole('link', { name: 'Open the post' })).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
    await wait(1);
    expect(screen.getByRole('status').textContent).toBe('Loading a-post');
    await act(async () => release());
    await wait(0);
    expect(screen.getByRole('heading', { name: 'The post' })).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });
});
