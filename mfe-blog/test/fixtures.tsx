import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLoaderData, useLocation, type RouteObject } from 'react-router-dom';
import type { JsonApi, RouteModule } from '@aitools/platform';
import type { BlogPostDoc } from '@aitools/contracts/blog';

/** n posts, newest first, like the API returns them. Post i has category/tags chosen to exercise the chips. */
export function makeDocs(n: number): BlogPostDoc[] {
  return Array.from({ length: n }, (_, i) => ({
    slug: `post-${i}`,
    title: i === 3 ? 'Setting up an MCP server' : `Post number ${i}`,
    excerpt: i === 5 ? 'All about TOKEN costs' : `Excerpt ${i}`,
    content: `Body of post ${i}`,
    category: i % 2 === 0 ? 'AI Basics' : 'Tutorial',
    tags: i === 7 ? ['Claude', 'MCP', 'Agents', 'Extra'] : ['Claude'],
    published_at: `2026-${String(12 - Math.floor(i / 2)).padStart(2, '0')}-0${(i % 2) + 1}`,
    author: 'AI Tools Team',
    read_time: `${i + 1} min read`,
  }));
}

/** The current address, for assertions on ?page=N. */
function Where() {
  const { pathname, search } = useLocation();
  return <output data-testid="where">{pathname + search}</output>;
}

export type Answer = { status: number; body: unknown } | Error;

/** The site's API as a loader sees it on the server (`context.api`): answers from `answer`, each path recorded. */
export function fakeApi(answer: (path: string) => Answer) {
  const calls: string[] = [];
  const api: JsonApi = {
    async fetchJson<T>(path: string) {
      calls.push(path);
      const a = answer(path);
      if (a instanceof Error) throw a;
      return { ok: a.status >= 200 && a.status < 300, status: a.status, body: a.body as T };
    },
  };
  return { api, calls };
}

interface RouteSetup<D> {
  /** Other routes of the app, e.g. where links lead. */
  others?: RouteObject[];
  /** The loader's data as the server gave it (hydration data): the loader does not run for the first page. */
  data?: D;
}

/**
 * A router with a route module as the shell mounts it: its loader (given `api` as the server's context) feeds its
 * Component, keyed by pathname like the shell's; the head is not applied (tests call `route.head`).
 */
export function routeRouter<D>(
  route: RouteModule<D>,
  routePath: string,
  at: string,
  api: JsonApi,
  { others = [], data }: RouteSetup<D> = {},
) {
  function Page() {
    const loaded = useLoaderData() as D;
    const { pathname } = useLocation();
    return (
      <>
        <route.Component key={pathname} data={loaded} />
        <Where />
      </>
    );
  }
  return createMemoryRouter(
    [
      {
        id: 'page',
        path: routePath,
        loader: (args) => route.loader!({ ...args, context: { api } }),
        shouldRevalidate: route.shouldRevalidate,
        Component: Page,
        HydrateFallback: () => <p>Loading route</p>,
      },
      ...others,
      { path: '*', element: <p>Elsewhere</p> },
    ],
    { initialEntries: [at], ...(data !== undefined ? { hydrationData: { loaderData: { page: data } } } : {}) },
  );
}

export function renderRoute<D>(
  route: RouteModule<D>,
  routePath: string,
  at: string,
  api: JsonApi,
  setup?: RouteSetup<D>,
) {
  const router = routeRouter(route, routePath, at, api, setup);
  return { router, ...render(<RouterProvider router={router} />) };
}

/** A loader's result as value and HTTP status (`data(value, { status })` or a plain value, 200). */
export function unwrap<T>(result: T | { data: T; init: ResponseInit | null }): { value: T; status: number } {
  return result && typeof result === 'object' && 'init' in result && 'data' in result
    ? { value: result.data, status: result.init?.status ?? 200 }
    : { value: result as T, status: 200 };
}
