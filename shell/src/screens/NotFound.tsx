import { Link } from 'react-router-dom';
import { RouteReady } from '../remotes/RouteReady';
import { useHead, SITE_NAME } from '@aitools/platform';

export function NotFound() {
  useHead({
    title: `Page Not Found | ${SITE_NAME}`,
    robots: 'noindex',
    description: 'The page you are looking for does not exist.',
  });
  return (
    <main className="screen-center">
      <h1>Page Not Found</h1>
      <p>The page you are looking for doesn't exist or has been moved.</p>
      <nav aria-label="Suggested pages" className="screen-center__links">
        <Link className="btn btn--primary" to="/">
          Go to Homepage
        </Link>
        <Link className="btn btn--ghost" to="/blog">
          Read the Blog
        </Link>
        <Link className="btn btn--ghost" to="/submit">
          Submit a Tool
        </Link>
      </nav>
      <RouteReady />
    </main>
  );
}
