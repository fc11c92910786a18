import type { SortKey, ToolQuery, TypeFilter } from '@aitools/contracts/toolQuery';
import { comboKey, forgetPage, rememberedPage, rememberPage } from '../pageMemory';
import type { useSearchBox } from './useSearchBox';

/**
 * What each control does to the query, with page memory: a combination of category, type and search opens on the
 * page last visited with it (else page 1); a new sort or page size starts again at page 1 and forgets it.
 * Clicking the active category or type again clears it.
 */
export function useListingControls(
  query: ToolQuery,
  search: ReturnType<typeof useSearchBox>,
  writeQuery: (update: Partial<ToolQuery>) => void,
) {
  const { category, type } = query;
  const key = comboKey(category, type, search.text);
  const pageFor = (c: string, t: string, s: string) => rememberedPage(comboKey(c, t, s)) ?? 1;
  const nextCategory = (c: string) => (c === category ? 'All' : c);
  const nextType = (t: TypeFilter) => (t === type && t !== 'all' ? 'all' : t);

  return {
    /** The combination's key in page memory. */
    key,
    nextCategory,
    nextType,
    onSearch(text: string) {
      search.typed(text);
      writeQuery({ search: text, page: pageFor(category, type, text) });
    },
    onCategory: (c: string) =>
      writeQuery({ category: nextCategory(c), page: pageFor(nextCategory(c), type, search.text) }),
    onType: (t: TypeFilter) => writeQuery({ type: nextType(t), page: pageFor(category, nextType(t), search.text) }),
    onSort(sort: SortKey) {
      forgetPage(key);
      writeQuery({ sort, page: 1 });
    },
    onPageSize(size: number) {
      forgetPage(key);
      writeQuery({ size, page: 1 });
    },
    onPage(page: number) {
      rememberPage(key, page);
      writeQuery({ page });
    },
    clearFilters() {
      search.clear();
      writeQuery({ category: 'All', type: 'all', search: '', page: 1 });
    },
  };
}
