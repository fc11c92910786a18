import { useEffect, useRef, type RefObject } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';
import type { ToolQuery } from '@aitools/contracts/toolQuery';
import { rememberedPage } from '../pageMemory';
import { takeScrollPosition } from '../scrollMemory';

const GRID_SCROLL_DELAY_MS = 100;
const GRID_SCROLL_OFFSET_PX = 100;
const QUERY_KEYS = ['category', 'type', 'search', 'page'];

/** Scrolls so the results grid sits just below the top of the window. */
export function scrollToGrid(grid: HTMLElement | null, behavior: ScrollBehavior = 'auto') {
  if (!grid) return;
  window.scrollTo({
    top: Math.max(0, grid.getBoundingClientRect().top + window.scrollY - GRID_SCROLL_OFFSET_PX),
    behavior,
  });
}

/**
 * Once, when the list is there: an address without a page opens on the combination's remembered page; then the
 * window goes where the visitor expects it: the saved position on Back, the FAQ for #faq, the grid for an
 * address that carries a query.
 */
export function useArrival(opts: {
  ready: boolean;
  memoryKey: string;
  params: URLSearchParams;
  grid: RefObject<HTMLElement | null>;
  writeQuery: (update: Partial<ToolQuery>) => void;
}) {
  const { ready, memoryKey, params, grid, writeQuery } = opts;
  const location = useLocation();
  const navigationType = useNavigationType();
  const arrived = useRef(false);
  useEffect(() => {
    if (!ready || arrived.current) return;
    arrived.current = true;
    if (!params.has('page')) {
      const remembered = rememberedPage(memoryKey);
      if (remembered && remembered > 1) writeQuery({ page: remembered });
    }
    const saved = navigationType === 'POP' ? takeScrollPosition(location.pathname + location.search) : null;
    if (saved) {
      requestAnimationFrame(() => window.scrollTo(saved.x, saved.y));
      return;
    }
    if (location.hash === '#faq') {
      requestAnimationFrame(() => document.getElementById('faq')?.scrollIntoView());
      return;
    }
    if (QUERY_KEYS.some((k) => params.has(k))) {
      const timer = setTimeout(() => scrollToGrid(grid.current), GRID_SCROLL_DELAY_MS);
      return () => clearTimeout(timer);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the list is there (see above)
  }, [ready]);
}
