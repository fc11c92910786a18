import { useEffect } from 'react';
import { useLocation, useNavigation } from 'react-router-dom';

/** Marks <html data-route-ready="/path"> once a route's code has run in the browser (hydrated or rendered);
 *  tests and tools wait on it instead of guessing. */
export function RouteReady() {
  const { pathname } = useLocation();
  const { state } = useNavigation();
  // After every render that is not mid-navigation (main.tsx clears the mark when a navigation starts).
  useEffect(() => {
    if (state === 'idle') document.documentElement.dataset.routeReady = pathname;
  });
  return null;
}
