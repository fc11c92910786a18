import { useEffect, useState, type ReactNode } from 'react';
import { matchPath, useLocation, useNavigation } from 'react-router-dom';
import { ROUTE_TABLE } from '@aitools/platform/routes';
import { useModuleSource } from './moduleSource';

/**
 * How long an in-app navigation keeps the current page on screen (under the progress bar) before the next page's
 * loading screen replaces it: a quick navigation never flashes a loading screen, a slow one says what it is loading.
 */
export const PENDING_AFTER_MS = 400;

/** The route table's page at a path, matched by the router's own rules (its matcher is in the page's code already). */
function pageAt(pathname: string) {
  for (const route of ROUTE_TABLE) {
    const match = matchPath(route.path, pathname);
    if (match) return { route, params: match.params };
  }
  return null;
}

/**
 * The current page, or, while an in-app navigation to another page has taken longer than PENDING_AFTER_MS, that
 * page's own loading screen: its route module's Pending ("Loading AI Tool", "Loading blog posts..."; docs/product.md).
 * The server never shows one: it sends each page with its data.
 */
export function PageOrPending({ children }: { children: ReactNode }) {
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const source = useModuleSource();
  const target =
    navigation.state === 'loading' && navigation.location.pathname !== pathname ? navigation.location : null;
  const page = target ? pageAt(target.pathname) : null;
  const remote = page?.route.remote;
  const module = page?.route.module;
  const targetKey = target?.key;
  const [shownFor, setShownFor] = useState<string | null>(null);

  useEffect(() => {
    if (!targetKey || !remote || !module) return;
    let current = true;
    // The module may still be on its way (a remote not loaded yet): its loading screen shows once it is here.
    const timer = setTimeout(() => {
      source.load(remote, module).then(
        () => current && setShownFor(targetKey),
        () => {}, // the navigation itself reports the failure (the route's error screen)
      );
    }, PENDING_AFTER_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [targetKey, remote, module, source]);

  const Pending = remote && module && shownFor === targetKey ? source.get(remote, module)?.Pending : undefined;
  return Pending ? <Pending params={page!.params} /> : children;
}
