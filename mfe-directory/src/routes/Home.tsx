import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigationType, useSearchParams } from 'react-router-dom';
import { canonicalUrl, fetchJson, getConfig, SITE_NAME, SocialLinks, useHead, type RouteProps } from '@aitools/platform';
import type { ToolSummary } from '@aitools/api/contracts/tools';
import { CATEGORIES } from '../lib/categories';
import { filterTools, parseTypeFilter, SORT_OPTIONS, sortTools, TYPE_OPTIONS, type SortKey, type TypeFilter } from '../lib/tools';
import { clampPage, DEFAULT_PAGE_SIZE, PAGE_SIZES, pageRange, totalPages } from '../lib/pagination';
import { comboKey, forgetPage, rememberedPage, rememberPage } from '../lib/pageMemory';
import { takeScrollPosition } from '../lib/scrollMemory';
import { loadToolList, type ToolList } from '../lib/loadTools';
import { rememberToolList, useToolListStore } from '../lib/toolListStore';
import { ToolCard } from '../components/ToolCard';
import { Pagination } from '../components/Pagination';
import { HomeFaq } from '../components/HomeFaq';
import { PromoTiles } from '../components/PromoTiles';
import { BackToTop } from '../components/BackToTop';
import '../styles.css';

type ListState = { status: 'loading' } | { status: 'error' } | { status: 'ready'; list: ToolList };

const STRUCTURED_DATA_TOOLS = 50;
const GRID_SCROLL_DELAY_MS = 100;
const GRID_SCROLL_OFFSET_PX = 100;
const QUERY_KEYS = ['category', 'type', 'search', 'page'];

interface QueryUpdate {
  category?: string;
  type?: TypeFilter;
  search?: string;
  page?: number;
}

function scrollToGrid(grid: HTMLElement | null, behavior: ScrollBehavior = 'auto') {
  if (!grid) return;
  window.scrollTo({ top: Math.max(0, grid.getBoundingClientRect().top + window.scrollY - GRID_SCROLL_OFFSET_PX), behavior });
}

export default function Home({ data }: RouteProps<ToolList>) {
  const cachedList = useToolListStore((s) => s.list);
  const [state, setState] = useState<ListState>(() =>
    data ? { status: 'ready', list: data } : cachedList ? { status: 'ready', list: cachedList } : { status: 'loading' },
  );
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigationType = useNavigationType();

  const categoryParam = params.get('category');
  const category = (CATEGORIES as readonly string[]).includes(categoryParam ?? '') ? categoryParam! : 'All';
  const type = parseTypeFilter(params.get('type'));
  const urlSearch = params.get('search') ?? '';
  const requestedPage = Number.parseInt(params.get('page') ?? '1', 10);

  // The search box is local state (instant typing); the URL follows it. lastWritten tells our own writes from outside ones.
  const [searchText, setSearchText] = useState(urlSearch);
  const lastWritten = useRef(urlSearch);
  useEffect(() => {
    if (urlSearch !== lastWritten.current) {
      lastWritten.current = urlSearch;
      setSearchText(urlSearch);
    }
  }, [urlSearch]);

  const [sort, setSort] = useState<SortKey>('popularity');
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const grid = useRef<HTMLDivElement>(null);

  const load = useCallback(() => {
    setState({ status: 'loading' });
    loadToolList(fetchJson)
      .then((list) => {
        rememberToolList(list);
        setState({ status: 'ready', list });
      })
      .catch((err) => {
        console.error('Error loading AI tools:', err);
        setState({ status: 'error' });
      });
  }, []);

  useEffect(() => {
    if (state.status === 'loading') load();
    else if (state.status === 'ready') rememberToolList(state.list);
    // only on mount: later loads come from "Try Again"
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Several writes can happen before the router commits the first (typing, then a page correction), so each
  // write builds on the last one written rather than on the possibly stale params of this render.
  const latestParams = useRef(params);
  useEffect(() => {
    latestParams.current = params;
  }, [params]);

  /** Writes the query with replace (no new history entry); defaults are left out. */
  const writeQuery = useCallback(
    (update: QueryUpdate) => {
      const next = new URLSearchParams(latestParams.current);
      const set = (key: string, value: string | undefined, empty: string) => {
        if (value === undefined) return;
        if (value === empty) next.delete(key);
        else next.set(key, value);
      };
      set('category', update.category, 'All');
      set('type', update.type, 'all');
      set('search', update.search, '');
      set('page', update.page === undefined ? undefined : String(update.page), '1');
      latestParams.current = next;
      setParams(next, { replace: true, preventScrollReset: true });
    },
    [setParams],
  );

  const tools: ToolSummary[] = state.status === 'ready' ? state.list.tools : [];
  const results = useMemo(() => sortTools(filterTools(tools, { search: searchText, category, type }), sort), [tools, searchText, category, type, sort]);
  const pages = totalPages(results.length, pageSize);
  const page = clampPage(requestedPage, pages);
  const visible = results.slice((page - 1) * pageSize, page * pageSize);
  const range = pageRange(page, pageSize, results.length);
  const key = comboKey(category, type, searchText);

  // A new combination of category, type and search opens on its remembered page, else page 1.
  const pageFor = (c: string, t: string, s: string) => rememberedPage(comboKey(c, t, s)) ?? 1;
  const onSearch = (text: string) => {
    setSearchText(text);
    lastWritten.current = text;
    writeQuery({ search: text, page: pageFor(category, type, text) });
  };
  const onCategory = (c: string) => {
    const next = c === category ? 'All' : c;
    writeQuery({ category: next, page: pageFor(next, type, searchText) });
  };
  const onType = (t: TypeFilter) => {
    const next = t === type && t !== 'all' ? 'all' : t;
    writeQuery({ type: next, page: pageFor(category, next, searchText) });
  };
  const onSort = (s: SortKey) => {
    setSort(s);
    forgetPage(key);
    writeQuery({ page: 1 });
  };
  const onPageSize = (n: number) => {
    setPageSize(n);
    forgetPage(key);
    writeQuery({ page: 1 });
  };
  const onPage = (p: number) => {
    rememberPage(key, p);
    writeQuery({ page: p });
    scrollToGrid(grid.current, 'smooth');
  };
  const clearFilters = () => {
    setSearchText('');
    lastWritten.current = '';
    writeQuery({ category: 'All', type: 'all', search: '', page: 1 });
  };
  const tryAgain = () => {
    clearFilters();
    load();
  };

  const ready = state.status === 'ready';

  // Keep the address honest when the requested page was out of range.
  useEffect(() => {
    if (ready && params.has('page') && page !== requestedPage) writeQuery({ page });
  }, [ready, page, requestedPage, params, writeQuery]);

  // Once, when the list is there: restore the remembered page, then the scroll (Back), the grid (incoming query) or #faq.
  const arrived = useRef(false);
  useEffect(() => {
    if (!ready || arrived.current) return;
    arrived.current = true;
    if (!params.has('page')) {
      const remembered = rememberedPage(key);
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
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ready]);

  const origin = getConfig().siteOrigin;
  const structuredData = useMemo(() => {
    if (!ready) return undefined;
    const top = sortTools(state.list.tools, 'popularity').slice(0, STRUCTURED_DATA_TOOLS);
    return {
      '@context': 'https://schema.org',
      '@type': 'ItemList',
      name: 'AI Tools and MCP Servers',
      numberOfItems: top.length,
      itemListElement: top.map((t, i) => ({ '@type': 'ListItem', position: i + 1, name: t.name, url: canonicalUrl(origin, `/tool/${t.slug}`) })),
    };
  }, [ready, state, origin]);

  useHead({
    title: `${SITE_NAME} - Discover 150+ AI Tools & MCP Servers`,
    description:
      'Search, filter and compare 150+ AI tools and MCP servers across 12+ categories: features, pricing plans and FAQs, updated weekly.',
    canonical: canonicalUrl(origin, '/'),
    robots: 'index,follow',
    jsonLd: structuredData,
  });

  return (
    <main className="dir-home">
      <header className="dir-hero">
        <div className="container">
          <h1>Discover the Best AI Tools &amp; MCP Servers</h1>
          <p className="dir-hero__lead">
            150+ hand-picked AI tools and Model Context Protocol servers in 12+ categories, updated weekly and trusted by 75,000+
            professionals.
          </p>
          <div className="dir-hero__links">
            <Link to="/blog" className="btn btn--primary">
              Read the AI Tools Blog
            </Link>
            <SocialLinks className="dir-hero__social" label="Follow us" />
          </div>
        </div>
      </header>

      <div className="container">
        {state.status === 'loading' && (
          <div className="dir-state" role="status" aria-live="polite">
            <span className="spinner" aria-hidden="true" />
            <p>Loading AI tools directory...</p>
            {cachedList && <p className="dir-state__count">{cachedList.tools.length} tools loaded</p>}
          </div>
        )}

        {state.status === 'error' && (
          <div className="dir-state" role="alert">
            <h2>Error Loading AI Tools</h2>
            <p>The directory could not be loaded.</p>
            <button type="button" className="btn btn--primary" onClick={tryAgain}>
              Try Again
            </button>
          </div>
        )}

        {ready && (
          <>
            <section className="dir-controls" aria-label="Search and filters">
              <div className="dir-controls__row">
                <label className="dir-search">
                  <span className="visually-hidden">Search tools and servers</span>
                  <input type="search" value={searchText} placeholder="Search tools and servers..." onChange={(e) => onSearch(e.target.value)} />
                </label>
                <label className="dir-select">
                  <span>Sort by</span>
                  <select value={sort} onChange={(e) => onSort(e.target.value as SortKey)}>
                    {SORT_OPTIONS.map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="dir-select">
                  <span>Per page</span>
                  <select value={pageSize} onChange={(e) => onPageSize(Number(e.target.value))}>
                    {PAGE_SIZES.map((n) => (
                      <option key={n} value={n}>
                        {n}
                      </option>
                    ))}
                  </select>
                </label>
              </div>
              <div className="dir-chips" role="group" aria-label="Type">
                {TYPE_OPTIONS.map((o) => (
                  <button key={o.value} type="button" className="dir-chip" aria-pressed={type === o.value} onClick={() => onType(o.value)}>
                    {o.label}
                  </button>
                ))}
              </div>
              <div className="dir-chips" role="group" aria-label="Category">
                {CATEGORIES.map((c) => (
                  <button key={c} type="button" className="dir-chip" aria-pressed={category === c} onClick={() => onCategory(c)}>
                    {c}
                  </button>
                ))}
              </div>
              {category !== 'All' && <p className="dir-hint">Click "{category}" again to clear filter</p>}
              {state.list.source === 'fallback' && (
                <p className="dir-hint">The full directory is unavailable right now; showing a built-in selection of popular tools.</p>
              )}
              <p className="dir-count" role="status">
                {results.length} {results.length === 1 ? 'tool' : 'tools'} found
              </p>
            </section>

            <div ref={grid} className="dir-results" id="tools">
              {results.length === 0 ? (
                <div className="dir-state">
                  <h2>No AI tools found</h2>
                  <p>Try adjusting your search terms or filters to find the AI tools you're looking for.</p>
                  <button type="button" className="btn btn--primary" onClick={clearFilters}>
                    Clear Filters
                  </button>
                </div>
              ) : (
                <>
                  <ul className="dir-grid">
                    {visible.map((t) => (
                      <li key={t.slug}>
                        <ToolCard tool={t} />
                      </li>
                    ))}
                  </ul>
                  <p className="dir-showing">
                    Showing {range.from} to {range.to} of {results.length} results
                  </p>
                  <Pagination page={page} total={pages} onPage={onPage} />
                </>
              )}
            </div>
          </>
        )}

        <PromoTiles />
        <HomeFaq />
      </div>
      <BackToTop threshold={300} />
    </main>
  );
}
