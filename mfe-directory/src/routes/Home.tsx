import { useEffect, useMemo, useRef } from 'react';
import { Link, useRevalidator } from 'react-router-dom';
import {
  canonicalUrl,
  defineRoute,
  getConfig,
  SITE_NAME,
  SocialLinks,
  type HeadArgs,
  type RouteProps,
} from '@aitools/platform';
import type { HomePage } from '../features/tools/api/loadTools';
import { forgetToolList, loadWholeList, useToolListStore } from '../features/tools/stores/toolListStore';
import { useAddressFollows, useListingQuery } from '../features/listing/hooks/useListingQuery';
import { useWrittenPage } from '../features/listing/hooks/useWrittenPage';
import { askAhead, askPage, forgetPages, keepAnswer } from '../features/listing/pageAnswers';
import { useSearchBox } from '../features/listing/hooks/useSearchBox';
import { useListingControls } from '../features/listing/hooks/useListingControls';
import { useInputBeforeCode } from '../features/listing/hooks/useInputBeforeCode';
import { scrollToGrid, useArrival } from '../features/listing/hooks/useArrival';
import { ListingControls } from '../features/listing/components/ListingControls';
import { ListingResults } from '../features/listing/components/ListingResults';
import { queryLinkFor } from '../features/listing/components/queryLink';
import { DidYouMean } from '../features/search/DidYouMean';
import { HomeFaq } from '../features/faq/components/HomeFaq';
import { PromoTiles } from '../features/promo/PromoTiles';
import { BackToTop } from '../shared/BackToTop';
import { homeLoader } from './loaders';
import { toolPath } from '@aitools/platform/routes';
import '../styles.css';

function structuredData(data: HomePage | null, origin: string) {
  if (!data?.featured.length) return undefined;
  const top = data.featured;
  return {
    '@context': 'https://schema.org',
    '@type': 'ItemList',
    name: 'AI Tools and MCP Servers',
    numberOfItems: top.length,
    itemListElement: top.map((t, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: t.name,
      url: canonicalUrl(origin, toolPath(t.slug)),
    })),
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
function Home({ data }: RouteProps<HomePage | null>) {
  // A large catalogue's page is asked for in the change's own event, before the render that shows the change.
  const listing = useListingQuery({ onWrite: (q) => void (useToolListStore.getState().list || askPage(q)) });
  const { query, address, params, pending, writeQuery, written } = listing;
  // A change shows as soon as its page is known (in its own event's render when the whole small list is held, else
  // when the API answers); the address and the loader then catch up with the same page.
  const whole = useToolListStore((s) => s.list);
  const writtenPage = useWrittenPage(written, whole);
  useAddressFollows(listing, writtenPage !== null);
  const list = writtenPage ?? data;
  const search = useSearchBox(query.search);
  const controls = useListingControls(query, search, writeQuery);
  const revalidator = useRevalidator();
  const form = useRef<HTMLFormElement>(null);
  const grid = useRef<HTMLDivElement>(null);
  const ready = list !== null;
  // Links keep the search as typed (the address may not have caught up yet).
  const shown = { ...query, search: search.text };
  const queryLink = queryLinkFor(shown);

  useInputBeforeCode(form, query, controls, () => void loadWholeList(list?.catalogue ?? Infinity));
  useArrival({ ready, memoryKey: controls.key, params, grid, writeQuery });
  // The page the server rendered answers narrower queries too, like any answer (features/listing/pageAnswers.ts).
  useEffect(() => {
    if (data && !pending) keepAnswer(address, data);
  }, [data, pending, address]);
  // Typing on in a large catalogue's search: the likeliest next keystrokes' pages are asked for ahead.
  useEffect(() => {
    if (!whole && list && written && document.activeElement === search.input.current) askAhead(written, list);
  }, [whole, list, written, search.input]);
  // Keep the address honest when the requested page was out of range.
  const page = data?.page ?? 1;
  useEffect(() => {
    if (ready && !pending && !written && params.has('page') && page !== address.page) writeQuery({ page });
  }, [ready, pending, written, page, address.page, params, writeQuery]);

  // The same element every render: React skips the promotion and the FAQ when a keystroke re-renders the page.
  const staticParts = useMemo(
    () => (
      <>
        <PromoTiles />
        <HomeFaq />
      </>
    ),
    [],
  );

  const tryAgain = () => {
    controls.clearFilters();
    forgetToolList();
    forgetPages();
    void revalidator.revalidate();
  };

  return (
    <main className="dir-home">
      <header className="dir-hero">
        <div className="container">
          <h1>Discover the Best AI Tools &amp; MCP Servers</h1>
          <p className="dir-hero__lead">
            150+ hand-picked AI tools and Model Context Protocol servers in 12+ categories, updated weekly and trusted
            by 75,000+ professionals.
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
            <ListingControls
              form={form}
              searchInput={search.input}
              query={query}
              controls={controls}
              queryLink={queryLink}
              total={list.total}
              fallback={list.source === 'fallback'}
              // The visitor is about to filter: a small catalogue comes whole, so every further change answers at once.
              onEngage={() => void loadWholeList(list.catalogue)}
            />
            <ListingResults
              grid={grid}
              list={list}
              query={shown}
              queryLink={queryLink}
              onPage={(p) => {
                controls.onPage(p);
                scrollToGrid(grid.current, 'smooth');
              }}
              clearFilters={controls.clearFilters}
              suggestions={<DidYouMean suggestions={list.suggestions ?? []} />}
            />
          </>
        )}

        {staticParts}
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
