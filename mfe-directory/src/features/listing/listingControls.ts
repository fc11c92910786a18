import { defaultSort, type SortKey, type ToolQuery, type TypeFilter } from '@aitools/contracts/toolQuery';
import { comboKey, forgetPage, rememberedPage, rememberPage } from './pageMemory';
import type { useHomeQuery } from './hooks/useHomeQuery';

/** Clicking the active category or type again clears it. */
export const nextCategory = (c: string, q: ToolQuery) => (c === q.category ? 'All' : c);
export const nextType = (t: TypeFilter, q: ToolQuery): TypeFilter => (t === q.type && t !== 'all' ? 'all' : t);

const keyOf = (q: ToolQuery) => comboKey(q.category, q.type, q.search);

/**
 * What each control does to the query, with page memory: a combination of category, type and search opens on the
 * page last visited with it (else page 1); a new sort or page size starts again at page 1 and forgets it. Each
 * builds on the latest query written (with the search as typed, though the address may not have caught up yet).
 */
export function listingControls(
  { latest, writeQuery }: Pick<ReturnType<typeof useHomeQuery>, 'latest' | 'writeQuery'>,
  searchBox: () => HTMLInputElement | null,
) {
  const withRememberedPage = (update: Partial<ToolQuery>) =>
    writeQuery({ ...update, page: rememberedPage(keyOf({ ...latest(), ...update })) ?? 1 });
  return {
    onSearch: (search: string) => withRememberedPage({ search }),
    onCategory: (c: string) => withRememberedPage({ category: nextCategory(c, latest()) }),
    onType: (t: TypeFilter) => withRememberedPage({ type: nextType(t, latest()) }),
    /** '' is the search's default sort (the select's value for it). */
    onSort(sort: SortKey | '') {
      forgetPage(keyOf(latest()));
      writeQuery({ sort: sort || defaultSort(latest().search), page: 1 });
    },
    onPageSize(size: number) {
      forgetPage(keyOf(latest()));
      writeQuery({ size, page: 1 });
    },
    onPage(page: number) {
      rememberPage(keyOf(latest()), page);
      writeQuery({ page });
    },
    clearFilters() {
      const box = searchBox();
      if (box) box.value = '';
      writeQuery({ category: 'All', type: 'all', search: '', page: 1 });
    },
  };
}

export type ListingControls = ReturnType<typeof listingControls>;
