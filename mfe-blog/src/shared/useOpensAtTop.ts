import { useEffect, useRef } from 'react';
import { useNavigationType } from 'react-router-dom';

/**
 * A screen the app opens starts at the top (docs/product.md, Blog). The page the server sent is left where the
 * browser has it: a visitor who scrolled while the code was on its way keeps their place when it hydrates, and
 * back and forward keep the browser's own restoring.
 */
export function useOpensAtTop(): void {
  // How this screen was opened, as of its first render: later navigations within it are not openings.
  const opened = useRef(useNavigationType());
  // A block body: Chromium 156's scrollTo returns a promise, which React would take for a cleanup function.
  useEffect(() => {
    if (opened.current !== 'POP') window.scrollTo(0, 0);
  }, []);
}
