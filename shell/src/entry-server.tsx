import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { HeadContext, type HeadCollector, type RouteModule } from '@aitools/platform';
import { createRoutes, REMOTE_ROUTES } from './routes';
import { withServerBudget } from './remotes/serverBudget';
import type { NotRenderedReason, RenderInput, RenderResult, ShellServer } from '../contract/serverContract';
import { matchRoute } from './routeMatch';
import { themeBootScript } from './theme/themeRules';
import { PAGE_CODE_ID, pageCodeBootScript } from './remotes/pageCode';
import { asRouteModule, SourceContext, type ModuleSource } from './remotes/moduleSource';
import { PAGE_STATE_ID, serializeErrors } from './remotes/pageState';
import { ChunkLoadError, isChunkLoadError } from './remotes/ChunkLoadError';
import { chunkId } from './remotes/loadRemote';

export type { RenderInput, RenderResult };

/** A request's modules: each loaded once, from this request's releases. */
function serverModuleSource(input: RenderInput): ModuleSource {
  const modules = new Map<string, RouteModule>();
  return {
    get: (remote, module) => modules.get(`${remote}|${module}`),
    async load(remote, module) {
      try {
        const mod = asRouteModule(await input.importModule(remote, module), remote, module, `server:${remote}`);
        modules.set(`${remote}|${module}`, mod);
        return mod;
      } catch (err) {
        // The browser gets the route's boundary (and retries there); never the server's message or paths.
        throw isChunkLoadError(err) ? err : new ChunkLoadError(chunkId(remote, module), 'error', `server:${remote}`);
      }
    },
  };
}

/** Runs the request through the route table (loaders, and the action of a form post), then renders the page. */
export async function renderRequest(input: RenderInput): Promise<RenderResult> {
  const source = serverModuleSource(input);
  const notRendered: Record<string, NotRenderedReason> = {};
  const routes = withServerBudget(createRoutes(source), REMOTE_ROUTES, {
    deadline: Date.now() + input.budgetMs,
    guard: input.guard,
    api: input.api,
    onNotRendered(route, reason, err) {
      notRendered[route.id] = reason;
      input.onNotRendered?.(route, reason, err);
    },
  });
  const handler = createStaticHandler(routes);
  const context = await handler.query(input.request, { requestContext: { api: input.api } });
  if (context instanceof Response) return { kind: 'response', response: context };
  const router = createStaticRouter(handler.dataRoutes, context);
  const collector: HeadCollector = { head: null };
  const html = renderToString(
    <HeadContext.Provider value={collector}>
      <SourceContext.Provider value={source}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </SourceContext.Provider>
    </HeadContext.Provider>,
  );
  // A route whose remote could not load is unavailable for now (503), not a server bug; the rest of the page is served.
  const unavailable = Object.values(context.errors ?? {}).some(isChunkLoadError);
  return {
    kind: 'page',
    status: unavailable ? 503 : context.statusCode,
    html,
    head: collector.head,
    hydration: {
      loaderData: context.loaderData,
      actionData: context.actionData,
      errors: serializeErrors(context.errors),
    },
    notRendered,
  };
}

/** The api's view of this build (serverContract.ts): checked here, so the contract and the code never drift. */
export default {
  renderRequest,
  matchRoute,
  themeBootScript,
  pageCodeBootScript,
  PAGE_STATE_ID,
  PAGE_CODE_ID,
} satisfies ShellServer;
