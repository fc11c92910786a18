import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { getConfig, useHead, type LoadResult, type RouteContext, type RouteProps } from '@aitools/platform';
import { fetchPostList } from '../lib/api';
import { blogService } from '../lib/blogClient';
import { FALLBACK_POST, postsOrFallback } from '../lib/fallbackPost';
import { BLOG_TAGLINE, BLOG_TITLE, listHead } from '../lib/head';
import { ALL, BLOG_CATEGORIES, filterPosts, pageCount, pageSlice, readPage } from '../lib/listing';
import { toSummary, type BlogPostSummary } from '../lib/posts';
import { FeaturedCard, PostCard } from '../components/PostCards';
import { Pagination } from '../components/Pagination';
import '../styles.css';

export interface BlogListData {
  posts: BlogPostSummary[];
}

/** Server: every published post (without bodies); a failed answer renders the fallback post. */
export async function loadBlogList(ctx: RouteContext): Promise<LoadResult<BlogListData>> {
  try {
    const { posts } = await fetchPostList(ctx.fetchJson);
    return { data: { posts: posts.map(toSummary) } };
  } catch (err) {
    console.error('Failed to fetch blog posts', err);
    return { data: { posts: [] } };
  }
}

type ListState = { status: 'loading' } | { status: 'error'; message: string } | { status: 'loaded'; posts: BlogPostSummary[] };

const FALLBACK_SUMMARY = toSummary(FALLBACK_POST);

export default function BlogList({ data }: RouteProps<BlogListData>) {
  const [state, setState] = useState<ListState>(() => (data ? { status: 'loaded', posts: data.posts } : { status: 'loading' }));
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState<string>(ALL);
  const [params, setParams] = useSearchParams();

  useEffect(() => {
    window.scrollTo(0, 0);
    if (data) return;
    let live = true;
    blogService
      .getAllPosts()
      .then((posts) => live && setState({ status: 'loaded', posts: posts.map(toSummary) }))
      .catch((err: unknown) => live && setState({ status: 'error', message: err instanceof Error ? err.message : String(err) }));
    return () => {
      live = false;
    };
  }, [data]);

  const posts = postsOrFallback(state.status === 'loaded' ? state.posts : [], FALLBACK_SUMMARY);
  const matching = filterPosts(posts, search, category);
  const pages = pageCount(matching.length);
  const page = readPage(params.get('page'), pages);
  const slice = pageSlice(matching, page);

  useHead(listHead({ origin: getConfig().siteOrigin, page, pages, posts }));

  if (state.status === 'loading') {
    return (
      <main className="blog-list">
        <div className="blog-state" role="status">
          <span className="spinner" aria-hidden="true" />
          <p>Loading blog posts...</p>
        </div>
      </main>
    );
  }
  if (state.status === 'error') {
    return (
      <main className="blog-list">
        <div className="blog-state" role="alert">
          <h1 className="blog-state__title">Error Loading Blog</h1>
          <p>{state.message}</p>
          <button type="button" className="btn btn--primary" onClick={() => window.location.reload()}>
            Try Again
          </button>
        </div>
      </main>
    );
  }

  /** Filters start again from page 1 (the parameter is dropped, replacing the entry). */
  const firstPage = () => {
    if (params.has('page')) setParams({}, { replace: true });
  };
  const goToPage = (n: number) => {
    setParams(n <= 1 ? {} : { page: String(n) });
    window.scrollTo({ top: 0, behavior: 'smooth' });
  };
  const chooseCategory = (c: string) => {
    setCategory(c === category ? ALL : c);
    firstPage();
  };
  const clearFilters = () => {
    setSearch('');
    setCategory(ALL);
    firstPage();
  };

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
            {matching.length} {matching.length === 1 ? 'Article' : 'Articles'}
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

      <section className="blog-filters" aria-label="Find posts">
        <label htmlFor="blog-search" className="visually-hidden">
          Search blog posts
        </label>
        <input
          id="blog-search"
          className="blog-filters__search"
          type="search"
          placeholder="Search posts..."
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            firstPage();
          }}
        />
        <div className="blog-chips" role="group" aria-label="Categories">
          {BLOG_CATEGORIES.map((c) => (
            <button key={c} type="button" className="blog-chip" aria-pressed={c === category} onClick={() => chooseCategory(c)}>
              {c}
            </button>
          ))}
        </div>
        {category !== ALL && <p className="blog-chips__hint">Click "{category}" again to clear filter</p>}
      </section>

      {matching.length === 0 ? (
        <section className="blog-empty" aria-live="polite">
          <h2>No blog posts found</h2>
          <p>Try adjusting your search terms or filters to find the posts you're looking for.</p>
          <button type="button" className="btn btn--primary" onClick={clearFilters}>
            Clear Filters
          </button>
        </section>
      ) : (
        <>
          {slice.featured && <FeaturedCard post={slice.featured} />}
          {slice.posts.length > 0 && (
            <section className="blog-latest" aria-labelledby="blog-latest-title">
              <h2 id="blog-latest-title">Latest Posts</h2>
              <div className="blog-grid">
                {slice.posts.map((p) => (
                  <PostCard key={p.slug} post={p} />
                ))}
              </div>
            </section>
          )}
          {pages > 1 && <Pagination page={page} pages={pages} onChange={goToPage} />}
        </>
      )}
    </main>
  );
}
