import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

/** Marks <html data-route-ready="/path"> once a route's code has run in the browser (hydrated or rendered);
 *  tests and tools wait on it instead of guessing. */
export function RouteReady() {
  const { pathname } = useLocation();
  useEffect(() => {
    document.documentElement.dataset.routeReady = pathname;
  }, [pathname]);
  return null;
}
