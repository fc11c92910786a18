import { useCallback, useEffect, useRef, type RefObject } from 'react';
import { useLocation, useNavigation, useSearchParams } from 'react-router-dom';
import { defaultSort, readToolQuery, toolQueryString, updateQuery, type ToolQuery } from '@aitools/contracts/toolQuery';

/**
 * The directory's query lives in the address. `query` is the one being loaded while a navigation to this page is
 * pending (so chips show a choice at once), else the address's; `address` is the one the page on screen answers. `writeQuery` moves the address in place (replace,
 * no new history entry, no scroll reset); the route's loader then answers it. React Router renders each navigation
 * as a transition and aborts the one a newer navigation supersedes, so the results on screen stay until the newest
 * query's page is there, and an older page arriving late is dropped.
 *
 * The form's fields are uncontrolled: what the visitor types or chooses shows at once. An address that comes from
 * elsewhere (Back, a link) is written into them.
 */
export function useHomeQuery(form: RefObject<HTMLFormElement | null>) {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigation = useNavigation();
  const pendingSearch = navigation.location?.pathname === location.pathname ? navigation.location.search : null;
  const address = readToolQuery(params);
  const query = pendingSearch === null ? address : readToolQuery(new URLSearchParams(pendingSearch));

  // Each write builds on the last one: several can come before the router commits the first (typing fast).
  const latest = useRef(address);
  // Addresses written here since the last one from elsewhere: one of them arriving is ours, even when older than
  // the latest write (its page arrived before the next keystroke), and must not rewrite the search box.
  const sent = useRef(new Set<string>());
  useEffect(() => {
    const arrived = readToolQuery(params);
    const key = toolQueryString(arrived);
    const newest = key === toolQueryString(latest.current);
    if (newest || sent.current.has(key)) {
      if (newest) sent.current.clear();
      return;
    }
    sent.current.clear();
    latest.current = arrived;
    const fields = form.current?.elements;
    for (const [name, value] of [
      ['search', arrived.search],
      ['sort', arrived.sort === defaultSort(arrived.search) ? '' : arrived.sort],
      ['size', String(arrived.size)],
    ]) {
      const field = fields?.namedItem(name) as HTMLInputElement | HTMLSelectElement | null;
      if (field && field.value !== value) field.value = value;
    }
  }, [params, form]);

  const writeQuery = useCallback(
    (update: Partial<ToolQuery>) => {
      latest.current = updateQuery(latest.current, update);
      const search = toolQueryString(latest.current);
      sent.current.add(search);
      setParams(new URLSearchParams(search), { replace: true, preventScrollReset: true });
    },
    [setParams],
  );

  return { query, address, params, pending: pendingSearch !== null, latest: () => latest.current, writeQuery };
}
