import { useEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';

const HASH_WAIT_MS = 3000;

/** New pages start at the top; an address with a hash (e.g. /#faq) scrolls to its target once the remote has
 *  rendered it. Back/forward leaves the position to the browser and the remote (the directory restores its own). */
export function ScrollManager() {
  const { pathname, hash } = useLocation();
  const navigationType = useNavigationType();

  useEffect(() => {
    if (hash) {
      const id = decodeURIComponent(hash.slice(1));
      const started = performance.now();
      let frame = 0;
      const seek = () => {
        const el = document.getElementById(id);
        if (el) el.scrollIntoView();
        else if (performance.now() - started < HASH_WAIT_MS) frame = requestAnimationFrame(seek);
      };
      seek();
      return () => cancelAnimationFrame(frame);
    }
    if (navigationType === 'PUSH') window.scrollTo(0, 0);
  }, [pathname, hash, navigationType]);

  return null;
}
