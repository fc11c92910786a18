/**
 * The router as the browser builds share it: exactly the React Router APIs the site uses. Browser builds of the
 * shell and every remote resolve `react-router-dom` to this module (see routerFacade in ../vite/federationConfig.ts),
 * so the shared chunk carries these exports, tree-shaken, instead of the whole package (a federated shared module
 * is bundled whole). One copy still runs: the host's. The server and tests use the package itself.
 *
 * The export list is part of the shell-remote contract: a remote may use only what the running shell's facade
 * exports. Add an API here, deploy the shell, then release the remotes that use it (and bump CONTRACT_VERSION).
 */
export {
  createBrowserRouter,
  data,
  Form,
  isRouteErrorResponse,
  Link,
  matchPath,
  matchRoutes,
  Outlet,
  redirect,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigate,
  useNavigation,
  useNavigationType,
  useParams,
  useRevalidator,
  useRouteError,
  useSearchParams,
} from 'react-router';
export { RouterProvider } from 'react-router/dom';
