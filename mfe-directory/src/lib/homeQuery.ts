import { CATEGORIES } from './categories';
import { parseTypeFilter, SORT_OPTIONS, type SortKey, type TypeFilter } from './tools';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from './pagination';

/** Everything the home page's address says: the spec's category, type, search and page, plus sort and page size
 *  (so that they work as a plain GET form without JavaScript too). Defaults are left out of the address. */
export interface HomeQuery {
  category: string;
  type: TypeFilter;
  search: string;
  page: number;
  sort: SortKey;
  size: number;
}

export const DEFAULT_QUERY: HomeQuery = { category: 'All', type: 'all', search: '', page: 1, sort: 'popularity', size: DEFAULT_PAGE_SIZE };

export function readHomeQuery(params: URLSearchParams): HomeQuery {
  const category = params.get('category') ?? '';
  const sort = params.get('sort') ?? '';
  const size = Number(params.get('size'));
  const page = Number.parseInt(params.get('page') ?? '1', 10);
  return {
    category: (CATEGORIES as readonly string[]).includes(category) ? category : 'All',
    type: parseTypeFilter(params.get('type')),
    search: params.get('search') ?? '',
    page: Number.isFinite(page) ? page : 1,
    sort: SORT_OPTIONS.some((o) => o.value === sort) ? (sort as SortKey) : 'popularity',
    size: (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
  };
}

/** The query string for a home query ('' when everything is default), keys in a stable order. */
function homeSearch(q: HomeQuery): string {
  const p = new URLSearchParams();
  if (q.category !== 'All') p.set('category', q.category);
  if (q.type !== 'all') p.set('type', q.type);
  if (q.search) p.set('search', q.search);
  if (q.sort !== DEFAULT_QUERY.sort) p.set('sort', q.sort);
  if (q.size !== DEFAULT_QUERY.size) p.set('size', String(q.size));
  if (q.page > 1) p.set('page', String(q.page));
  const s = p.toString();
  return s ? `?${s}` : '';
}

export const homeHref = (q: HomeQuery) => `/${homeSearch(q)}`;
