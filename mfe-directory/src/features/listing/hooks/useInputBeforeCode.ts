import { useEffect, type RefObject } from 'react';
import type { SortKey, ToolQuery } from '@aitools/contracts/toolQuery';
import type { ListingControls } from '../listingControls';

/**
 * What the visitor typed or chose in the server-rendered form before the code arrived is on the page, not in the
 * address: applied once, on the first render in the browser. `onInput` runs when there was any.
 */
export function useInputBeforeCode(
  form: RefObject<HTMLFormElement | null>,
  query: ToolQuery,
  controls: ListingControls,
  onInput: () => void,
) {
  useEffect(() => {
    const el = form.current;
    if (!el) return;
    const typed = (el.elements.namedItem('search') as HTMLInputElement | null)?.value ?? '';
    const sort = (el.elements.namedItem('sort') as HTMLSelectElement | null)?.value as SortKey | undefined;
    const size = Number((el.elements.namedItem('size') as HTMLSelectElement | null)?.value);
    if (sort && sort !== query.sort) controls.onSort(sort);
    if (size && size !== query.size) controls.onPageSize(size);
    if (typed !== query.search) controls.onSearch(typed);
    if (typed || sort !== query.sort || size !== query.size) onInput();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on the first render in the browser
  }, []);
}
