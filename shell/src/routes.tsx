import { data, type Params, type RouteObject } from 'react-router-dom';
import type { JsonApi } from '@aitools/platform';
import { ROUTE_TABLE, SHELL_ROUTES } from '@aitools/platform/routes';
import { remoteRoute, type RemoteRouteDef } from './remotes/RemoteRoute';
import type { ModuleSource } from './remotes/moduleSource';
import { App } from './App';
import { NotFound } from './screens/NotFound';
import { AdminNotice } from './screens/AdminNotice';
import { RootError } from './screens/ErrorScreens';

export type { RemoteRouteDef };

/** Asks the API whether a thing exists (in process on the server); only a clear 404 or 410 counts as missing. */
const existsAt = (resource: string) => async (params: Params, api: JsonApi) => {
  const { status } = await api.fetchJson(resource + encodeURIComponent(params.slug ?? ''));
  return status !== 404 && status !== 410;
};

/** The route table (@aitools/platform/routes) with the shell's existence checks. */
export const REMOTE_ROUTES: RemoteRouteDef[] = ROUTE_TABLE.map(({ existsAt: resource, ...route }) => ({
  ...route,
  ...(resource ? { exists: existsAt(resource) } : {}),
}));

export { SHELL_ROUTES };

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
