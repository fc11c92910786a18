import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { focusContent } from '@aitools/platform';

/** Time for the new page's head (its title) to be applied after it renders. */
const TITLE_WAIT_MS = 100;

/**
 * A move to another page inside the app says so, as a full page load would: the new page's title is announced
 * (a polite status), and keyboard focus moves to the page's content (focusContent), so the next Tab starts in the
 * new page rather than where the old one was. Not on the first load, and not when only the query or hash changes
 * (a filter or a search keeps the visitor where they are).
 */
export function RouteAnnouncer() {
  const { pathname } = useLocation();
  const first = useRef(true);
  const [message, setMessage] = useState('');
  useEffect(() => {
    if (first.current) return void (first.current = false);
    focusContent();
    const timer = setTimeout(() => setMessage(document.title), TITLE_WAIT_MS);
    return () => clearTimeout(timer);
  }, [pathname]);
  return (
    <p className="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
      {message}
    </p>
  );
}
