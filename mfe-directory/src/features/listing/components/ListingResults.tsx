import { useCallback, useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { useLocation } from 'react-router-dom';
import { HydrateLater } from '@aitools/platform';
import { saveScrollPosition } from '../scrollMemory';
import type { ToolQuery } from '@aitools/contracts/toolQuery';
import type { HomePage } from '../../tools/api/loadTools';
import { homeHref } from '../homeQuery';
import { pageRange } from '../pagination';
import { Pagination } from './Pagination';
import { ToolCard } from './ToolCard';
import type { QueryLink } from './queryLink';

interface Props {
  grid: RefObject<HTMLDivElement | null>;
  list: HomePage;
  /** The query the page on screen answers (its page links are made from it). */
  query: ToolQuery;
  queryLink: QueryLink;
  onPage: (page: number) => void;
  clearFilters: () => void;
  /** Shown in the empty state above Clear Filters (the search's suggestions). */
  suggestions?: ReactNode;
}

/** The cards of the widest grid's first row hydrate with the page; the rest, below the fold on every screen but the
 *  largest, after it (HydrateLater): a page of 24 cards was most of the home page's hydration on a phone
 *  (docs/performance.md, "Phones"). */
const EAGER_CARDS = 3;

/** The page of results with its range and pages, or the empty state with suggestions. */
export function ListingResults({ grid, list, query, queryLink, onPage, clearFilters, suggestions }: Props) {
  const range = pageRange(list.page, query.size, list.total);
  // Before an in-app navigation from a card: the list's scroll position under its address, for Back.
  const location = useLocation();
  const address = useRef('');
  useEffect(() => {
    address.current = location.pathname + location.search;
  }, [location]);
  const saveScroll = useCallback(() => saveScrollPosition(address.current, window.scrollX, window.scrollY), []);
  return (
    <div ref={grid} className="dir-results" id="tools">
      {list.total === 0 ? (
        <div className="dir-state">
          <h2>No AI tools found</h2>
          <p>Try adjusting your search terms or filters to find the AI tools you're looking for.</p>
          {suggestions}
          <a className="btn btn--primary" {...queryLink({ category: 'All', type: 'all', search: '' }, clearFilters)}>
            Clear Filters
          </a>
        </div>
      ) : (
        <>
          <ul className="dir-grid">
            {/* Keyed by position: a new page of results updates the cards in place instead of rebuilding them. */}
            {cardItems(list.tools.slice(0, EAGER_CARDS), 0, saveScroll)}
            <HydrateLater>{cardItems(list.tools.slice(EAGER_CARDS), EAGER_CARDS, saveScroll)}</HydrateLater>
          </ul>
          <p className="dir-showing">
            Showing {range.from} to {range.to} of {list.total} results
          </p>
          <Pagination
            page={list.page}
            total={list.pages}
            hrefFor={(p) => homeHref({ ...query, page: p })}
            onPage={onPage}
          />
        </>
      )}
    </div>
  );
}

function cardItems(tools: HomePage['tools'], from: number, saveScroll: () => void) {
  return tools.map((t, i) => (
    <li key={from + i}>
      <ToolCard tool={t} saveScroll={saveScroll} />
    </li>
  ));
}
