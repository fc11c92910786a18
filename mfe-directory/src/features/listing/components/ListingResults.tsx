import { useCallback, useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { useLocation } from 'react-router-dom';
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
            {list.tools.map((t, i) => (
              <li key={i}>
                <ToolCard tool={t} saveScroll={saveScroll} />
              </li>
            ))}
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
