import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import {
  canonicalUrl,
  defineRoute,
  getConfig,
  HydrateLater,
  SITE_NAME,
  SocialLinks,
  type HeadArgs,
  type RouteProps,
} from '@aitools/platform';
import type { HomePage } from '../features/tools/api/loadTools';
import { loadWholeList } from '../features/tools/stores/toolListStore';
import { useHomeQuery } from '../features/listing/hooks/useHomeQuery';
import { listingControls } from '../features/listing/listingControls';
import { comboKey } from '../features/listing/pageMemory';
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

/** The same element every render: React skips the promotion and the FAQ when a new query re-renders the page. */
const STATIC_PARTS = (
  <>
    <PromoTiles />
    <HomeFaq />
  </>
);

/**
 * The directory. The address holds the whole query, so every control is also plain HTML: the search and the selects
 * are a GET form, chips and pages are links. With the code loaded, a change rewrites the address in place and the
 * route's loader answers the new page (from the whole list for a small catalogue, else from the API; see
 * loaders.ts); text typed or options chosen before the code arrived are read from the page and applied.
 */
function Home({ data }: RouteProps<HomePage | null>) {
  const form = useRef<HTMLFormElement>(null);
  const grid = useRef<HTMLDivElement>(null);
  const listing = useHomeQuery(form);
  const { query, address, params, pending, writeQuery } = listing;
  const controls = listingControls(
    listing,
    () => form.current?.elements.namedItem('search') as HTMLInputElement | null,
  );
  const queryLink = queryLinkFor(query);
  const ready = data !== null;

  // Input before the code, or the visitor about to filter: a small catalogue comes whole, so every further change
  // is answered in the browser.
  const holdWholeList = () => void loadWholeList(data?.catalogue ?? Infinity);
  useInputBeforeCode(form, query, controls, holdWholeList);
  useArrival({ ready, memoryKey: comboKey(query.category, query.type, query.search), params, grid, writeQuery });
  // Keep the address honest when the requested page was out of range.
  const page = data?.page ?? 1;
  useEffect(() => {
    if (ready && !pending && params.has('page') && page !== query.page) writeQuery({ page });
  }, [ready, pending, page, query.page, params, writeQuery]);

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
            {/* Clearing the filters navigates, and the loader asks again. */}
            <button type="button" className="btn btn--primary" onClick={controls.clearFilters}>
              Try Again
            </button>
          </div>
        )}

        {ready && (
          <>
            <ListingControls
              form={form}
              query={query}
              controls={controls}
              queryLink={queryLink}
              total={data.total}
              fallback={data.source === 'fallback'}
              onEngage={holdWholeList}
            />
            <ListingResults
              grid={grid}
              list={data}
              query={address}
              queryLink={queryLink}
              onPage={(p) => {
                controls.onPage(p);
                scrollToGrid(grid.current, 'smooth');
              }}
              clearFilters={controls.clearFilters}
              suggestions={<DidYouMean suggestions={data.suggestions ?? []} />}
            />
          </>
        )}

        {/* Below the fold: hydrated after the rest (HydrateLater). */}
        <HydrateLater>{STATIC_PARTS}</HydrateLater>
      </div>
      <BackToTop threshold={300} />
    </main>
  );
}

/** While an in-app navigation to / loads (docs/product.md, Directory: Loading). A page arrives at once, so there is no count to show. */
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
