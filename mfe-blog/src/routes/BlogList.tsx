import { useEffect, useRef, useState } from 'react';
import {
  data,
  Link,
  useLocation,
  useNavigate,
  useNavigationType,
  useSearchParams,
  type LoaderFunctionArgs,
} from 'react-router-dom';
import { defineRoute, getConfig, routeApi, type RouteProps } from '@aitools/platform';
import { blogServiceFor } from '../features/posts/blogClient';
import { FALLBACK_POST, postsOrFallback } from '../features/posts/fallbackPost';
import { BLOG_TAGLINE, BLOG_TITLE, listErrorHead, listHead } from './head';
import { LIST_PATH, listHref, listView, readListQuery } from '../features/listing/listing';
import { toSummary, type BlogPostSummary } from '../features/posts/posts';
import { FeaturedCard, PostCard } from '../features/listing/PostCards';
import { ListFilters } from '../features/listing/ListFilters';
import { Pagination } from '../features/listing/Pagination';
import { useOpensAtTop } from '../shared/useOpensAtTop';
import '../styles.css';

/** Every published post without its body (or the sample post when there are none), or why none could be loaded. */
export type BlogListData = { status: 'loaded'; posts: BlogPostSummary[] } | { status: 'error'; message: string };

const FALLBACK_SUMMARY = toSummary(FALLBACK_POST);

/**
 * All posts: the page filters and pages them from its address (?search, ?category, ?page), on the server and in
 * the browser alike. An API error answer shows the sample post (docs/product.md, Blog list); a request that fails outright
 * shows "Error Loading Blog" (returned, not thrown, so the page's own screen shows).
 */
export async function loadBlogList({ context }: Pick<LoaderFunctionArgs, 'context'>) {
  try {
    const posts = await blogServiceFor(routeApi(context)).getAllPosts();
    return { status: 'loaded', posts: postsOrFallback(posts.map(toSummary), FALLBACK_SUMMARY) } satisfies BlogListData;
  } catch (err) {
    console.error('Failed to fetch blog posts', err);
    return data<BlogListData>(
      { status: 'error', message: err instanceof Error ? err.message : String(err) },
      { status: 500 },
    );
  }
}

function BlogList({ data }: RouteProps<BlogListData>) {
  useOpensAtTop();
  return data.status === 'error' ? <LoadError message={data.message} /> : <Listing posts={data.posts} />;
}

/** Shown while an in-app navigation loads the list. */
function Loading() {
  return (
    <main className="blog-list">
      <div className="blog-state" role="status">
        <span className="spinner" aria-hidden="true" />
        <p>Loading blog posts...</p>
      </div>
    </main>
  );
}

/** "Try Again" reloads; as a link to this address it does so without code too. */
function LoadError({ message }: { message: string }) {
  const { pathname, search } = useLocation();
  return (
    <main className="blog-list">
      <div className="blog-state" role="alert">
        <h1 className="blog-state__title">Error Loading Blog</h1>
        <p>{message}</p>
        <a
          href={pathname + search}
          className="btn btn--primary"
          onClick={(e) => {
            e.preventDefault();
            window.location.reload();
          }}
        >
          Try Again
        </a>
      </div>
    </main>
  );
}

/**
 * The search text, kept in state so the list follows every keystroke at once; the address is written with replace.
 * Text typed before the code ran is only in the box (React does not see it), so it is read from there on mount and
 * applied. Any other change of address (a chip, Clear Filters, back/forward) puts its text in the box.
 */
function useSearchText(urlSearch: string, writeUrl: (text: string) => void) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [search, setSearch] = useState(urlSearch);
  const { key } = useLocation();
  const navigationType = useNavigationType();
  const seenKey = useRef<string | null>(null);

  useEffect(() => {
    const input = inputRef.current;
    if (!input || seenKey.current === key) return;
    const first = seenKey.current === null;
    seenKey.current = key;
    if (first) {
      if (input.value !== urlSearch) {
        setSearch(input.value);
        writeUrl(input.value);
      }
    } else if (navigationType !== 'REPLACE') {
      // Our own writes are replacements; anything else is a new view of the list.
      input.value = urlSearch;
      setSearch(urlSearch);
    }
  }, [key, navigationType, urlSearch, writeUrl]);

  const onSearch = (text: string) => {
    setSearch(text);
    writeUrl(text);
  };
  return { inputRef, search, onSearch };
}

function Listing({ posts }: { posts: BlogPostSummary[] }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const query = readListQuery(params);
  const { category } = query;
  // A new search starts again from page 1.
  const writeUrl = (text: string) => void navigate(listHref({ search: text, category }), { replace: true });
  const { inputRef, search, onSearch } = useSearchText(query.search, writeUrl);

  // The list follows the box at once; page and category come from the address.
  const { matching, pages, page, slice } = listView(posts, { ...query, search });

  return (
    <main className="blog-list">
      <header className="blog-hero">
        <nav className="blog-hero__nav" aria-label="Back to the directory">
          <Link to="/" className="blog-hero__back">
            ← Back to Tools
          </Link>
          <Link to="/" className="btn btn--ghost btn--small">
            TOOLS
          </Link>
        </nav>
        <h1 className="blog-hero__title">{BLOG_TITLE}</h1>
        <p className="blog-hero__tagline">{BLOG_TAGLINE}</p>
        <ul className="blog-hero__stats">
          <li>
            {/* A status: as the list filters, a screen reader hears the new count. */}
            <span role="status">
              {matching.length} {matching.length === 1 ? 'Article' : 'Articles'}
            </span>
          </li>
          {pages > 1 && (
            <li>
              Page {page} of {pages}
            </li>
          )}
          <li>Updated Weekly</li>
          <li>Expert Insights</li>
        </ul>
      </header>

      <ListFilters
        search={search}
        initialSearch={query.search}
        category={category}
        onSearch={onSearch}
        inputRef={inputRef}
      />

      {matching.length === 0 ? (
        <section className="blog-empty">
          <h2>No blog posts found</h2>
          <p>Try adjusting your search terms or filters to find the posts you're looking for.</p>
          {/* Clears search and category, page 1: the plain list. */}
          <Link to={LIST_PATH} className="btn btn--primary">
            Clear Filters
          </Link>
        </section>
      ) : (
        <>
          {slice.featured && <FeaturedCard post={slice.featured} />}
          {slice.posts.length > 0 && (
            <section className="blog-latest" aria-labelledby="blog-latest-title">
              <h2 id="blog-latest-title">Latest Posts</h2>
              <div className="columns-3 blog-grid">
                {slice.posts.map((p) => (
                  <PostCard key={p.slug} post={p} />
                ))}
              </div>
            </section>
          )}
          {pages > 1 && (
            <Pagination page={page} total={pages} hrefFor={(n) => listHref({ search, category, page: n })} />
          )}
        </>
      )}
    </main>
  );
}

export default defineRoute<BlogListData>({
  loader: loadBlogList,
  head: ({ data, url }) =>
    data.status === 'error'
      ? listErrorHead()
      : listHead({ origin: getConfig().siteOrigin, posts: data.posts, params: url.searchParams }),
  // The list is filtered and paged in the page from its address: a new query of /blog needs no new data.
  shouldRevalidate: ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
    currentUrl.pathname === nextUrl.pathname && currentUrl.search !== nextUrl.search ? false : defaultShouldRevalidate,
  Component: BlogList,
  Pending: Loading,
});
