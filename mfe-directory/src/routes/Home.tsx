import { useCallback, useEffect, useRef, useState, type MouseEvent } from 'react';
import { Link, useLocation, useNavigation, useNavigationType, useRevalidator, useSearchParams } from 'react-router-dom';
import { canonicalUrl, defineRoute, getConfig, SITE_NAME, SocialLinks, type HeadArgs, type RouteProps } from '@aitools/platform';
import { CATEGORIES, PAGE_SIZES, readToolQuery, SORT_OPTIONS, TYPE_OPTIONS, type SortKey, type ToolQuery, type TypeFilter } from '@aitools/api/contracts/toolQuery';
import { pageRange } from '../features/listing/pagination';
import { comboKey, forgetPage, rememberedPage, rememberPage } from '../features/listing/pageMemory';
import { takeScrollPosition } from '../features/listing/scrollMemory';
import type { HomePage } from '../features/tools/api/loadTools';
import { forgetToolList, loadWholeList } from '../features/tools/stores/toolListStore';
import { homeHref } from '../features/listing/homeQuery';
import { plainClick } from '../shared/plainClick';
import { homeLoader } from './loaders';
import { ToolCard } from '../features/listing/components/ToolCard';
import { Pagination } from '../features/listing/components/Pagination';
import { HomeFaq } from '../features/faq/components/HomeFaq';
import { PromoTiles } from '../features/promo/PromoTiles';
import { BackToTop } from '../shared/BackToTop';
import { DidYouMean } from '../features/search/DidYouMean';
import '../styles.css';

const GRID_SCROLL_DELAY_MS = 100;
const GRID_SCROLL_OFFSET_PX = 100;
const QUERY_KEYS = ['category', 'type', 'search', 'page'];
/** "Free" and "Paid" come only from a tool page's Explore More links; they show as active chips when set. */
const EXTRA_TYPE_LABELS: Partial<Record<TypeFilter, string>> = { free: 'Free', paid: 'Paid' };

function scrollToGrid(grid: HTMLElement | null, behavior: ScrollBehavior = 'auto') {
  if (!grid) return;
  window.scrollTo({ top: Math.max(0, grid.getBoundingClientRect().top + window.scrollY - GRID_SCROLL_OFFSET_PX), behavior });
}

function structuredData(data: HomePage | null, origin: string) {
  if (!data?.featured.length) return undefined;
  const top = data.featured;
  return {
    '@context': 'https://schema.org',
    '@type': 'ItemList',
    name: 'AI Tools and MCP Servers',
    numberOfItems: top.length,
    itemListElement: top.map((t, i) => ({ '@type': 'ListItem', position: i + 1, name: t.name, url: canonicalUrl(origin, `/tool/${t.slug}`) })),
  };
}

function homeHead({ data }: HeadArgs<HomePage | null>) {
  const origin = getConfig().siteOrigin;
  return {
    title: `${SITE_NAME} - Discover 150+ AI Tools & MCP Servers`,
    description:
      'Search, filter and compare 150+ AI tools and MCP servers across 12+ categories: features, pricing plans and FAQs, updated weekly.',
    canonical: canonicalUrl(origin, '/'),
    robots: 'index,follow',
    jsonLd: structuredData(data, origin),
  };
}

/**
 * The directory. The address holds the whole query, so every control is also plain HTML: the search and the selects
 * are a GET form, chips and pages are links. With the code loaded, a change rewrites the address in place (replace)
 * and the route's loader answers the new page (at once from the whole list for a small catalogue, else from the
 * API); text typed or options chosen before the code arrived are read from the page and applied.
 */
function Home({ data: list }: RouteProps<HomePage | null>) {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigation = useNavigation();
  const navigationType = useNavigationType();
  const revalidator = useRevalidator();
  // Chips and selects show the query being loaded, not the one it replaces (the address changes when data is in).
  const pendingSearch = navigation.location?.pathname === location.pathname ? navigation.location.search : null;
  const pending = pendingSearch === null ? null : new URLSearchParams(pendingSearch);
  const query = readToolQuery(pending ?? params);
  const { category, type, sort, size: pageSize } = query;
  const urlSearch = query.search;

  // The search box is local state (instant typing); the URL follows it. lastWritten tells our own writes from outside ones.
  const [searchText, setSearchText] = useState(urlSearch);
  const lastWritten = useRef(urlSearch);
  const searchInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (urlSearch !== lastWritten.current) {
      lastWritten.current = urlSearch;
      setSearchText(urlSearch);
      if (searchInput.current) searchInput.current.value = urlSearch;
    }
  }, [urlSearch]);

  const grid = useRef<HTMLDivElement>(null);

  // Several writes can happen before the router commits the first (typing, then a page correction), so each
  // write builds on the last one written rather than on the possibly stale params of this render.
  const latest = useRef(query);
  useEffect(() => {
    latest.current = readToolQuery(params);
  }, [params]);

  /** Writes the query with replace (no new history entry); defaults are left out. */
  const writeQuery = useCallback(
    (update: Partial<ToolQuery>) => {
      const next = { ...latest.current, ...update };
      latest.current = next;
      setParams(new URLSearchParams(homeHref(next).slice(2)), { replace: true, preventScrollReset: true });
    },
    [setParams],
  );

  const total = list?.total ?? 0;
  const page = list?.page ?? 1;
  const range = pageRange(page, pageSize, total);
  const key = comboKey(category, type, searchText);

  // A new combination of category, type and search opens on its remembered page, else page 1.
  const pageFor = (c: string, t: string, s: string) => rememberedPage(comboKey(c, t, s)) ?? 1;
  const onSearch = (text: string) => {
    setSearchText(text);
    lastWritten.current = text;
    writeQuery({ search: text, page: pageFor(category, type, text) });
  };
  const nextCategory = (c: string) => (c === category ? 'All' : c);
  const nextType = (t: TypeFilter) => (t === type && t !== 'all' ? 'all' : t);
  const onCategory = (c: string) => writeQuery({ category: nextCategory(c), page: pageFor(nextCategory(c), type, searchText) });
  const onType = (t: TypeFilter) => writeQuery({ type: nextType(t), page: pageFor(category, nextType(t), searchText) });
  const onSort = (s: SortKey) => {
    forgetPage(key);
    writeQuery({ sort: s, page: 1 });
  };
  const onPageSize = (n: number) => {
    forgetPage(key);
    writeQuery({ size: n, page: 1 });
  };
  const onPage = (p: number) => {
    rememberPage(key, p);
    writeQuery({ page: p });
    scrollToGrid(grid.current, 'smooth');
  };
  const clearFilters = () => {
    setSearchText('');
    lastWritten.current = '';
    if (searchInput.current) searchInput.current.value = '';
    writeQuery({ category: 'All', type: 'all', search: '', page: 1 });
  };
  const tryAgain = () => {
    clearFilters();
    forgetToolList();
    void revalidator.revalidate();
  };
  /** A link that stands for a query: a plain click applies it in place, anything else navigates. */
  const queryLink = (target: Partial<ToolQuery>, apply: () => void) => ({
    to: homeHref({ ...query, search: searchText, page: 1, ...target }),
    onClick: (e: MouseEvent) => {
      if (!plainClick(e)) return;
      e.preventDefault();
      apply();
    },
  });

  const ready = list !== null;

  // What the visitor typed or chose before the code arrived is on the page, not in the address: apply it now.
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const el = form.current;
    if (!el) return;
    const typed = (el.elements.namedItem('search') as HTMLInputElement | null)?.value ?? '';
    const chosenSort = (el.elements.namedItem('sort') as HTMLSelectElement | null)?.value as SortKey | undefined;
    const chosenSize = Number((el.elements.namedItem('size') as HTMLSelectElement | null)?.value);
    if (chosenSort && chosenSort !== sort) onSort(chosenSort);
    if (chosenSize && chosenSize !== pageSize) onPageSize(chosenSize);
    if (typed !== urlSearch) onSearch(typed);
    if (typed || chosenSort !== sort || chosenSize !== pageSize) void loadWholeList(list?.catalogue ?? Infinity);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on the first render in the browser
  }, []);

  // Keep the address honest when the requested page was out of range.
  useEffect(() => {
    if (ready && pendingSearch === null && params.has('page') && page !== query.page) writeQuery({ page });
  }, [ready, pendingSearch, page, query.page, params, writeQuery]);

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
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the list is there (see above)
  }, [ready]);

  const typeChips = [...TYPE_OPTIONS, ...(EXTRA_TYPE_LABELS[type] ? [{ value: type, label: EXTRA_TYPE_LABELS[type]! }] : [])];

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
        {!ready && (
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
            <form
              ref={form}
              className="dir-controls"
              method="get"
              action="/"
              role="search"
              aria-label="Search and filters"
              onSubmit={(e) => e.preventDefault()}
              // The visitor is about to filter: a small catalogue comes whole, so every further change answers at once.
              onFocus={() => void loadWholeList(list.catalogue)}
              onPointerDown={() => void loadWholeList(list.catalogue)}
            >
              <div className="dir-controls__row">
                <label className="dir-search">
                  <span className="visually-hidden">Search tools and servers</span>
                  <input
                    ref={searchInput}
                    type="search"
                    name="search"
                    defaultValue={urlSearch}
                    placeholder="Search tools and servers..."
                    onChange={(e) => onSearch(e.target.value)}
                  />
                </label>
                <label className="dir-select">
                  <span>Sort by</span>
                  <select name="sort" value={sort} onChange={(e) => onSort(e.target.value as SortKey)}>
                    {SORT_OPTIONS.map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="dir-select">
                  <span>Per page</span>
                  <select name="size" value={pageSize} onChange={(e) => onPageSize(Number(e.target.value))}>
                    {PAGE_SIZES.map((n) => (
                      <option key={n} value={n}>
                        {n}
                      </option>
                    ))}
                  </select>
                </label>
                {/* Without JavaScript, Enter in the search box or this button applies the form. */}
                <noscript>
                  <button type="submit" className="btn btn--primary">
                    Apply
                  </button>
                </noscript>
                {category !== 'All' && <input type="hidden" name="category" value={category} />}
                {type !== 'all' && <input type="hidden" name="type" value={type} />}
              </div>
              <ul className="dir-chips" aria-label="Type">
                {typeChips.map((o) => (
                  <li key={o.value}>
                    <Link className="dir-chip" aria-current={type === o.value ? 'true' : undefined} {...queryLink({ type: nextType(o.value) }, () => onType(o.value))}>
                      {o.label}
                    </Link>
                  </li>
                ))}
              </ul>
              <ul className="dir-chips" aria-label="Category">
                {CATEGORIES.map((c) => (
                  <li key={c}>
                    <Link className="dir-chip" aria-current={category === c ? 'true' : undefined} {...queryLink({ category: nextCategory(c) }, () => onCategory(c))}>
                      {c}
                    </Link>
                  </li>
                ))}
              </ul>
              {category !== 'All' && <p className="dir-hint">Click "{category}" again to clear filter</p>}
              {list.source === 'fallback' && (
                <p className="dir-hint">The full directory is unavailable right now; showing a built-in selection of popular tools.</p>
              )}
              <p className="dir-count" role="status">
                {total} {total === 1 ? 'tool' : 'tools'} found
              </p>
            </form>

            <div ref={grid} className="dir-results" id="tools">
              {total === 0 ? (
                <div className="dir-state">
                  <h2>No AI tools found</h2>
                  <p>Try adjusting your search terms or filters to find the AI tools you're looking for.</p>
                  <DidYouMean suggestions={list.suggestions ?? []} />
                  <Link className="btn btn--primary" {...queryLink({ category: 'All', type: 'all', search: '' }, clearFilters)}>
                    Clear Filters
                  </Link>
                </div>
              ) : (
                <>
                  <ul className="dir-grid">
                    {list.tools.map((t) => (
                      <li key={t.slug}>
                        <ToolCard tool={t} />
                      </li>
                    ))}
                  </ul>
                  <p className="dir-showing">
                    Showing {range.from} to {range.to} of {total} results
                  </p>
                  <Pagination page={page} total={list.pages} hrefFor={(p) => homeHref({ ...query, search: searchText, page: p })} onPage={onPage} />
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

/** While an in-app navigation to / loads (SPEC's loading state). A page arrives at once, so there is no count to show. */
function HomeLoading() {
  return (
    <main className="dir-home">
      <div className="container">
        <div className="dir-state" role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" />
          <p>Loading AI tools directory...</p>
        </div>
      </div>
    </main>
  );
}

export default defineRoute<HomePage | null>({
  Pending: HomeLoading,
  // Every new query runs the loader (React Router's default for a changed address).
  loader: homeLoader,
  head: homeHead,
  Component: Home,
});
