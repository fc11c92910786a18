import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLoaderData } from 'react-router-dom';
import { vi } from 'vitest';
import type { RouteModule } from '@aitools/platform';

export const TEST_KEY = '0123456789abcdef0123456789abcdef';

/**
 * Renders a route module as the shell does (its loader and action in a data router, its Component given the
 * loader's data) with a stand-in home page; the router tells where navigation went and how. The first page's
 * data (and the answer of a post, as after a post without JavaScript) is given as hydration data, as the
 * server's would be.
 */
export function renderRoute(path: string, route: RouteModule, initialEntries: string[] = [path], actionData?: unknown) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <p>Home page</p> },
      {
        id: 'page',
        path,
        loader: route.loader,
        action: route.action,
        Component: () => <route.Component data={useLoaderData()} />,
      },
    ],
    {
      initialEntries,
      initialIndex: initialEntries.length - 1,
      hydrationData: {
        loaderData: { page: { idempotencyKey: TEST_KEY } },
        ...(actionData ? { actionData: { page: actionData } } : {}),
      },
    },
  );
  return { router, ...render(<RouterProvider router={router} />) };
}

/** A JSON answer for the stubbed fetch. */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export function stubFetch(impl: (url: string, init?: RequestInit) => Promise<Response>) {
  const fn = vi.fn(impl);
  vi.stubGlobal('fetch', fn);
  return fn;
}

/** A promise the test settles when it wants (to observe the in-flight state). */
export function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
