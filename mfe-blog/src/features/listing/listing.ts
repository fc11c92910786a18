import type { BlogPostSummary } from '../posts/posts';

/** The category chips, in order (docs/product.md, Blog list). */
export const BLOG_CATEGORIES = [
  'All',
  'AI Tutorial',
  'Business Strategy',
  'Market Analysis',
  'Productivity',
  'Cost Optimization',
  'AI Basics',
  'AI Comparison',
  'AI Examples',
  'AI History',
  'AI Healthcare',
  'AI Legal',
  'AI Manufacturing',
  'AI Productivity',
  'AI Integration',
  'AI Automation',
  'AI Security',
  'MCP',
  'Tutorial',
] as const;

export const ALL = 'All';
const PAGE_SIZE = 12;

type Filterable = Pick<BlogPostSummary, 'title' | 'excerpt' | 'category' | 'tags'>;

/** Search is case-insensitive on the title and the excerpt (which already falls back to the description). */
export function matchesSearch(post: Filterable, search: string): boolean {
  const q = search.trim().toLowerCase();
  if (!q) return true;
  return post.title.toLowerCase().includes(q) || post.excerpt.toLowerCase().includes(q);
}

/** A chip matches a post's category or any of its tags; "All" matches everything. */
export function matchesCategory(post: Filterable, category: string): boolean {
  if (category === ALL) return true;
  const c = category.toLowerCase();
  return post.category.toLowerCase() === c || post.tags.some((t) => t.toLowerCase() === c);
}

export function filterPosts<T extends Filterable>(posts: T[], search: string, category: string): T[] {
  return posts.filter((p) => matchesCategory(p, category) && matchesSearch(p, search));
}

/** Page 1 holds the featured post and the next 12; every later page holds 12. */
export function pageCount(total: number): number {
  return Math.max(1, Math.ceil((total - 1) / PAGE_SIZE));
}

/** A page number from the address: ?page=N, clamped to 1..pages; anything unreadable is page 1. */
export function readPage(param: string | null, pages: number): number {
  const n = param && /^\d+$/.test(param) ? Number(param) : 1;
  return Math.min(Math.max(1, n), pages);
}

export interface PageSlice<T> {
  featured: T | null;
  posts: T[];
}

export function pageSlice<T>(posts: T[], page: number): PageSlice<T> {
  if (page <= 1) return { featured: posts[0] ?? null, posts: posts.slice(1, 1 + PAGE_SIZE) };
  const start = 1 + PAGE_SIZE * (page - 1);
  return { featured: null, posts: posts.slice(start, start + PAGE_SIZE) };
}

/** What the address asks of the list: /blog?search=..&category=..&page=N. */
export interface ListQuery {
  search: string;
  /** One of BLOG_CATEGORIES; anything else reads as "All". */
  category: string;
  /** As asked (clamped to the pages there are once the matching posts are known). */
  page: number;
}

export const LIST_PATH = '/blog';

export function readListQuery(params: URLSearchParams): ListQuery {
  const category = params.get('category') ?? ALL;
  return {
    search: params.get('search') ?? '',
    category: (BLOG_CATEGORIES as readonly string[]).includes(category) ? category : ALL,
    page: readPage(params.get('page'), Number.MAX_SAFE_INTEGER),
  };
}

/**
 * The address of a list view: only what differs from the defaults (no search, All, page 1), so page 1 of the
 * unfiltered list is plain /blog. The search text is kept as typed (a trailing space is still the visitor's text).
 */
export function listHref({ search = '', category = ALL, page = 1 }: Partial<ListQuery>): string {
  const params = new URLSearchParams();
  if (search) params.set('search', search);
  if (category !== ALL) params.set('category', category);
  if (page > 1) params.set('page', String(page));
  const qs = params.toString();
  return qs ? `${LIST_PATH}?${qs}` : LIST_PATH;
}

/** The address of a page of the unfiltered list: page 1 has no parameter. */
export function pageHref(page: number): string {
  return listHref({ page });
}

export interface ListView<T> {
  query: ListQuery;
  matching: T[];
  pages: number;
  /** The asked page, clamped to 1..pages. */
  page: number;
  slice: PageSlice<T>;
}

/** The list for a query (read from the address with readListQuery): what the page shows and the head describes. */
export function listView<T extends Filterable>(posts: T[], query: ListQuery): ListView<T> {
  const matching = filterPosts(posts, query.search, query.category);
  const pages = pageCount(matching.length);
  const page = Math.min(query.page, pages);
  return { query, matching, pages, page, slice: pageSlice(matching, page) };
}
