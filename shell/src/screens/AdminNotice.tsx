import { Link } from 'react-router-dom';
import { RouteReady } from '../remotes/RouteReady';
import { useHead, SITE_NAME } from '@aitools/platform';

export function AdminNotice() {
  useHead({ title: `Admin | ${SITE_NAME}`, robots: 'noindex,nofollow' });
  return (
    <main className="screen-center">
      <h1 className="screen-center__notice">Admin panel is only available in development environment</h1>
      <Link className="btn btn--primary" to="/">
        Go to Homepage
      </Link>
      <RouteReady />
    </main>
  );
}
