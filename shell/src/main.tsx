import { startTransition } from 'react';
import { createBrowserRouter, matchRoutes, RouterProvider } from 'react-router-dom';
import { createRoutes } from './routes';
import { browserModuleSource, SourceContext } from './remotes/moduleSource';
import { PAGE_STATE_ID, reviveErrors, type PageState } from './remotes/pageState';
import { parseManifest } from './remotes/manifest';
import type { RemoteHandle } from './remotes/RemoteRoute';
import { isChunkLoadError } from './remotes/ChunkLoadError';
import { configureSignals, reportSignal, watchUnhandledErrors } from './remotes/signals';

function readPageState(): Partial<PageState> {
  const el = document.getElementById(PAGE_STATE_ID);
  const raw = el?.textContent ? (JSON.parse(el.textContent) as Partial<PageState>) : {};
  // Run-time configuration for the platform SDK (getConfig) in the shell and every remote.
  if (raw.config) (window as unknown as { __APP_CONFIG__?: object }).__APP_CONFIG__ = raw.config;
  return raw;
}

/** Lets the browser handle input and paint before the next piece of start-up work: `scheduler.yield()` where the
 *  browser has it (the rest of the work keeps its place in the queue), else a new task. */
function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

async function start() {
  const state = readPageState();
  let releases = parseManifest(state.releases);
  // A page without inlined releases (e.g. opened from a static file) asks the server for the manifest.
  if (Object.keys(releases).length === 0) {
    try {
      releases = parseManifest(await (await fetch('/remotes.json', { cache: 'no-store' })).json());
    } catch (err) {
      console.error('Could not load the remotes manifest', err);
    }
  }
  const source = browserModuleSource(releases);
  const routes = createRoutes(source);
  // Errors are reported per release the page names (remotes/signals.ts), by route pattern, never by address.
  const current = () => matchRoutes(routes, window.location) ?? [];
  const remotesOnScreen = () =>
    current().flatMap(({ route }) =>
      (route.handle as RemoteHandle | undefined)?.remote ? [(route.handle as RemoteHandle).remote] : [],
    );
  configureSignals(
    releases,
    () => {
      const path = current().at(-1)?.route.path;
      return !path || path === '*' ? '/*' : path;
    },
    state.signals,
  );
  watchUnhandledErrors();
  const root = document.getElementById('root')!;
  const errors = reviveErrors(state.router?.errors) ?? {};
  let hydrate = root.hasChildNodes() && !!state.router;

  // React Router's SSR rule: the modules of the routes on screen are loaded before hydrating, so the first render
  // in the browser is the server's. A module that fails to load shows its route's boundary instead.
  const matches = matchRoutes(routes, window.location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      const handle = route.handle as RemoteHandle | undefined;
      if (!handle?.remote || !route.id) return;
      // The server did not render this route (its release failed there, or it ran out of time or its breaker
      // was open): the browser runs it from scratch.
      if (isChunkLoadError(errors[route.id]) || state.notRendered?.[route.id]) {
        delete errors[route.id];
        hydrate = false;
      }
      try {
        await source.load(handle.remote, handle.module);
      } catch (err) {
        reportSignal('load-error', handle.remote, err);
        // A route the server answered with its own error (e.g. a 404 found without the remote) keeps it.
        if (!errors[route.id]) errors[route.id] = err;
        hydrate = false;
      }
    }),
  );

  // The modules just evaluated and what follows (React DOM's client, the router, then hydration) run as separate
  // tasks, so none of them adds to another's blocking time on a slow phone (docs/performance.md, "Phones"). React DOM
  // is in the vendor chunk, already here; imported now, its module body (most of the start-up's evaluation) runs in
  // this task instead of the entry's.
  await yieldToMain();
  const { hydrateRoot, createRoot } = await import('react-dom/client');
  const hydrationData = state.router && {
    loaderData: state.router.loaderData,
    actionData: state.router.actionData ?? null,
    errors: Object.keys(errors).length ? errors : null,
  };
  // Routes without data here (the server could not render them) run their loaders in the browser.
  const router = createBrowserRouter(routes, { hydrationData });
  await yieldToMain();
  // A navigation in progress is not a ready route (see RouteReady): cleared synchronously, as the navigation starts.
  router.subscribe((s) => {
    if (s.navigation.state !== 'idle') delete document.documentElement.dataset.routeReady;
  });
  const tree = (
    <SourceContext.Provider value={source}>
      <RouterProvider router={router} />
    </SourceContext.Provider>
  );
  // As a transition, hydration yields to the browser every few milliseconds instead of holding the main thread
  // for all of it: input and paint stay responsive while a phone hydrates (Lighthouse counts it as blocking time).
  // An interaction with a part not yet hydrated makes React hydrate that part first.
  // A hydration mismatch or error is the remote's on screen (React recovers by rendering it again in the browser).
  const onRecoverableError = (err: unknown) => {
    console.error(err);
    for (const remote of remotesOnScreen()) reportSignal('hydration', remote, err);
  };
  if (hydrate) startTransition(() => void hydrateRoot(root, tree, { onRecoverableError }));
  // React replaces the server's HTML when its first render commits, so the page is never blank meanwhile.
  else createRoot(root).render(tree);
}

void start();
