import { lazy, Suspense, useMemo, useState, type ComponentType } from 'react';
import { useLocation } from 'react-router-dom';
import { loadRemoteModule } from './loadRemote';
import { usePage } from './pageState';
import { RemoteBoundary } from './RemoteBoundary';
import { RouteReady } from './RouteReady';
import type { RemoteManifest } from './manifest';

type RouteComponent = ComponentType<{ data?: unknown }>;

// React.lazy remembers a rejection, so each retry gets a fresh lazy component; successes are reused across routes.
const lazyCache = new Map<string, RouteComponent>();

function lazyRemote(remote: string, module: string, manifest: RemoteManifest, attempt: number): RouteComponent {
  const key = `${remote}|${module}|${manifest[remote]?.entry ?? ''}|${attempt}`;
  let cached = lazyCache.get(key);
  if (!cached) {
    cached = lazy(async () => ({ default: await loadRemoteModule<RouteComponent>(remote, module, { manifest, attempt }) }));
    lazyCache.set(key, cached);
  }
  return cached;
}

function RemoteLoading() {
  return (
    <div className="remote-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>Loading…</span>
    </div>
  );
}

/** Server: a remote whose server entry failed. Throwing inside Suspense makes React send the fallback and
 *  render this part in the browser instead. */
function ClientOnly(): never {
  throw new Error('This remote renders in the browser');
}

/** One route of a remote: server-rendered from the release's server entry, hydrated from its federated module. */
export function RemoteRoute({ remote, module }: { remote: string; module: string }) {
  const page = usePage();
  const location = useLocation();
  const [attempt, setAttempt] = useState(0);
  const [initialData] = useState(() => page.takeInitialData(location.pathname + location.search));
  const server = page.server;
  const Component = useMemo<RouteComponent>(
    () => (server ? (server.Component ?? ClientOnly) : lazyRemote(remote, module, page.releases, attempt)),
    [server, remote, module, page.releases, attempt],
  );
  return (
    <RemoteBoundary attempt={attempt} onRetry={() => setAttempt((n) => n + 1)}>
      <Suspense fallback={<RemoteLoading />}>
        <Component data={server ? server.data : initialData} />
        <RouteReady />
      </Suspense>
    </RemoteBoundary>
  );
}
