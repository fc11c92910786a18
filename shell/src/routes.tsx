import { data, type Params, type RouteObject } from 'react-router-dom';
import type { JsonApi } from '@aitools/platform';
import { remoteRoute, type RemoteRouteDef } from './remotes/RemoteRoute';
import type { ModuleSource } from './remotes/moduleSource';
import { App } from './App';
import { NotFound } from './screens/NotFound';
import { AdminNotice } from './screens/AdminNotice';
import { RootError } from './screens/ErrorScreens';

export type { RemoteRouteDef };

/** Asks the API whether a thing exists (in process on the server); only a clear 404 counts as missing. */
const existsAt = (path: (slug: string) => string) => async (params: Params, api: JsonApi) =>
  (await api.fetchJson(path(encodeURIComponent(params.slug ?? '')))).status !== 404;

/** Which remote renders each route (SPEC section 2). The anchor /#faq is the home page's FAQ section. */
export const REMOTE_ROUTES: RemoteRouteDef[] = [
  { path: '/', remote: 'directory', module: './Home' },
  { path: '/tool/:slug', remote: 'directory', module: './ToolDetail', exists: existsAt((slug) => `/api/tools/${slug}`) },
  { path: '/blog', remote: 'blog', module: './BlogList' },
  { path: '/blog/:slug', remote: 'blog', module: './BlogPost', exists: existsAt((slug) => `/api/blog/public/posts/${slug}`) },
  { path: '/advertise', remote: 'forms', module: './Advertise' },
  { path: '/submit', remote: 'forms', module: './Submit' },
  { path: '/contact', remote: 'forms', module: './Contact' },
  { path: '/privacy', remote: 'legal', module: './Privacy' },
  { path: '/terms', remote: 'legal', module: './Terms' },
  { path: '/cookies', remote: 'legal', module: './Cookies' },
];

export const SHELL_ROUTES = { admin: '/admin' } as const;

/** The route objects, the same on the server and in the browser; only where modules come from differs. */
export function createRoutes(source: ModuleSource): RouteObject[] {
  return [
    {
      id: 'root',
      element: <App />,
      errorElement: <RootError />,
      children: [
        ...REMOTE_ROUTES.map((def) => remoteRoute(def, source)),
        { path: SHELL_ROUTES.admin, element: <AdminNotice /> },
        // Any other path: the 404 screen, with the 404 status on the server.
        { path: '*', loader: () => data(null, { status: 404 }), element: <NotFound /> },
      ],
    },
  ];
}
