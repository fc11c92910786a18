import { useContext, useSyncExternalStore } from 'react';
import { HeadContext } from './head';

const noSubscription = () => () => {};

/** True while React hydrates the server's HTML (it reads the server snapshot then), false in any later render and
 *  on the server (whose render the shell gives a head collector, entry-server.tsx; the browser's never has one). */
export function useHydrating(): boolean {
  const onServer = useContext(HeadContext) !== null;
  return useSyncExternalStore(
    noSubscription,
    () => false,
    () => !onServer,
  );
}
