import { Route, Routes, useLocation } from 'react-router-dom';
import { RemoteRoute } from './remotes/RemoteRoute';
import { NotFound } from './screens/NotFound';
import { AdminNotice } from './screens/AdminNotice';

/** Which remote renders each route (SPEC section 2). The anchor /#faq is the home page's FAQ section. */
export interface RemoteRouteDef {
  path: string;
  remote: 'directory' | 'blog' | 'forms' | 'legal';
  /** The remote's exposed module. */
  module: string;
}

export const REMOTE_ROUTES: RemoteRouteDef[] = [
  { path: '/', remote: 'directory', module: './Home' },
  { path: '/tool/:slug', remote: 'directory', module: './ToolDetail' },
  { path: '/blog', remote: 'blog', module: './BlogList' },
  { path: '/blog/:slug', remote: 'blog', module: './BlogPost' },
  { path: '/advertise', remote: 'forms', module: './Advertise' },
  { path: '/submit', remote: 'forms', module: './Submit' },
  { path: '/contact', remote: 'forms', module: './Contact' },
  { path: '/privacy', remote: 'legal', module: './Privacy' },
  { path: '/terms', remote: 'legal', module: './Terms' },
  { path: '/cookies', remote: 'legal', module: './Cookies' },
];

export const SHELL_ROUTES = { admin: '/admin' } as const;

export function AppRoutes() {
  const { pathname } = useLocation();
  return (
    <Routes>
      {REMOTE_ROUTES.map((r) => (
        // keyed by pathname: a new address (e.g. another tool) gets a fresh route, a new query does not
        <Route key={r.path} path={r.path} element={<RemoteRoute key={pathname} remote={r.remote} module={r.module} />} />
      ))}
      <Route path={SHELL_ROUTES.admin} element={<AdminNotice />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
