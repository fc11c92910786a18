import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigation, useSearchParams } from 'react-router-dom';
import { readToolQuery, type ToolQuery } from '@aitools/contracts/toolQuery';
import { homeHref } from '../homeQuery';

/**
 * The listing's query lives in the address. Reads it (the one being loaded, while a navigation to this page is
 * pending, so chips and selects show what was chosen at once) and writes it in place: replace, no new history
 * entry, no scroll reset, defaults left out. A write shows first and moves the address after (`useAddressFollows`):
 * the router's navigation then never runs ahead of the results it is about to show.
 */
export function useListingQuery({ onWrite }: { onWrite?: (q: ToolQuery) => void } = {}) {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigation = useNavigation();
  const pendingSearch = navigation.location?.pathname === location.pathname ? navigation.location.search : null;
  const address = readToolQuery(pendingSearch === null ? params : new URLSearchParams(pendingSearch));

  // Several writes can happen before the router commits the first (typing, then a page correction), so each
  // write builds on the last one written rather than on the possibly stale params of this render.
  const latest = useRef(address);
  // The last query written here, until the address has it: what the page shows, and what the controls show.
  const [written, setWritten] = useState<ToolQuery | null>(null);
  // Addresses this page sent the router to: one of them arriving while a newer write waits for its results is
  // ours and older, not a change from elsewhere (Back, a link), so it must not undo the newer write.
  const sent = useRef(new Set<string>());
  useEffect(() => {
    const arrived = homeHref(readToolQuery(params));
    const newer = homeHref(latest.current) !== arrived && sent.current.has(arrived);
    sent.current.delete(arrived);
    if (newer) return;
    sent.current.clear();
    latest.current = readToolQuery(params);
    setWritten(null);
  }, [params]);

  // Told of each write in its event, before React renders it (a page that must ask the API starts asking at once).
  const writeSeen = useRef(onWrite);
  useEffect(() => {
    writeSeen.current = onWrite;
  });
  const writeQuery = useCallback((update: Partial<ToolQuery>) => {
    const next = { ...latest.current, ...update };
    latest.current = next;
    writeSeen.current?.(next);
    setWritten(next);
  }, []);

  const followAddress = useCallback(
    (q: ToolQuery) => {
      const href = homeHref(q);
      sent.current.add(href);
      setParams(new URLSearchParams(href.slice(2)), { replace: true, preventScrollReset: true });
    },
    [setParams],
  );

  return {
    query: written ?? address,
    address,
    params,
    pending: pendingSearch !== null,
    writeQuery,
    written,
    followAddress,
  };
}

/** Moves the address to the query written, once the page shows its results (`shown`): once per write (the router's
 *  setter changes with the address, and must not send the same write again). */
export function useAddressFollows(
  { written, followAddress }: Pick<ReturnType<typeof useListingQuery>, 'written' | 'followAddress'>,
  shown: boolean,
) {
  const followed = useRef<ToolQuery | null>(null);
  useEffect(() => {
    if (written && shown && followed.current !== written) {
      followed.current = written;
      followAddress(written);
    }
  }, [written, shown, followAddress]);
}
