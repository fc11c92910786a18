/** Test helper for remotes: renders a route module through a memory data router, as the shell runs it. */
import { render } from '@testing-library/react';
import {
  createMemoryRouter,
  RouterProvider,
  useLoaderData,
  useLocation,
  useParams,
  type RouteObject,
} from 'react-router-dom';
import { useHead } from './head';
import type { JsonApi, RouteModule } from './contract';

export interface RenderRouteOptions {
  /** The route's path pattern, e.g. "/tool/:slug". */
  path: string;
  /** The address to open. */
  url: string;
  /** The loader's data as the server would have sent it (rendered at once, like a hydrated page); without it, the
   *  route's loader runs. */
  data?: unknown;
  /** The API the loader and action see (as on the server); the browser's fetch when absent. */
  api?: JsonApi;
  /** Other routes of the test (e.g. a placeholder for a link's target). */
  routes?: RouteObject[];
}

export function renderRoute(route: RouteModule, opts: RenderRouteOptions) {
  function Page() {
    const data = useLoaderData();
    const location = useLocation();
    const params = useParams();
    useHead(
      route.head?.({ data, url: new URL(location.pathname + location.search, 'https://localhost'), params }) ?? {
        title: '',
      },
    );
    return <route.Component data={data} />;
  }
  const context = opts.api ? { api: opts.api } : undefined;
  const router = createMemoryRouter(
    [
      {
        id: 'page',
        path: opts.path,
        loader: route.loader ? (args) => route.loader!({ ...args, context }) : undefined,
        action: route.action ? (args) => route.action!({ ...args, context }) : undefined,
        shouldRevalidate: route.shouldRevalidate,
        Component: Page,
        HydrateFallback: () => null,
      },
      ...(opts.routes ?? []),
    ],
    {
      initialEntries: [opts.url],
      ...(opts.data !== undefined ? { hydrationData: { loaderData: { page: opts.data } } } : {}),
    },
  );
  return { router, ...render(<RouterProvider router={router} />) };
}
