import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigation, useSearchParams } from 'react-router-dom';
import { readToolQuery, type ToolQuery } from '@aitools/api/contracts/toolQuery';
import { homeHref } from '../homeQuery';

/**
 * The listing's query lives in the address. Reads it (the one being loaded, while a navigation to this page is
 * pending, so chips and selects show what was chosen at once) and writes it in place: replace, no new history
 * entry, no scroll reset, defaults left out.
 */
export function useListingQuery() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigation = useNavigation();
  const pendingSearch = navigation.location?.pathname === location.pathname ? navigation.location.search : null;
  const query = readToolQuery(pendingSearch === null ? params : new URLSearchParams(pendingSearch));

  // Several writes can happen before the router commits the first (typing, then a page correction), so each
  // write builds on the last one written rather than on the possibly stale params of this render.
  const latest = useRef(query);
  // The last query written here, until the address has it: what a page that can answer at once (the whole list
  // held) shows in the change's own render, instead of after the router's asynchronous navigation.
  const [written, setWritten] = useState<ToolQuery | null>(null);
  useEffect(() => {
    latest.current = readToolQuery(params);
    setWritten(null);
  }, [params]);

  const writeQuery = useCallback(
    (update: Partial<ToolQuery>) => {
      const next = { ...latest.current, ...update };
      latest.current = next;
      setWritten(next);
      setParams(new URLSearchParams(homeHref(next).slice(2)), { replace: true, preventScrollReset: true });
    },
    [setParams],
  );

  return { query, params, pending: pendingSearch !== null, writeQuery, written };
}
