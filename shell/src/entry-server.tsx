import { renderToString } from 'react-dom/server';
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
  UNSAFE_ErrorResponseImpl as ErrorResponse,
  type StaticHandlerContext,
} from 'react-router-dom';
import { HeadContext, type HeadCollector, type RouteModule } from '@aitools/platform';
import { createRoutes, REMOTE_ROUTES } from './routes';
import { serverGaveUp, withServerBudget } from './remotes/serverBudget';
import type { NotRenderedReason, RenderInput, RenderResult, ShellServer } from '../contract/serverContract';
import { matchRoute } from './routeMatch';
import { themeBootScript } from './theme/themeRules';
import { PAGE_CODE_ID, pageCodeBootScript } from './remotes/pageCode';
import { asRouteModule, SourceContext, type ModuleSource } from './remotes/moduleSource';
import { PAGE_STATE_ID, serializeErrors } from './remotes/pageState';
import { isChunkLoadError } from './remotes/ChunkLoadError';
import type { RemoteHandle } from './remotes/RemoteRoute';

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
        throw isChunkLoadError(err) ? err : serverGaveUp(remote, module);
      }
    },
  };
}

/** Runs the request through the route table (loaders, and the action of a form post), then renders the page. */
export async function renderRequest(input: RenderInput): Promise<RenderResult> {
  const source = serverModuleSource(input);
  const notRendered: Record<string, NotRenderedReason> = {};
  // A remote's loader that answered counts as its success only once its component has rendered too.
  const answered = new Set<string>();
  const onNotRendered: RenderInput['onNotRendered'] = (route, reason, err) => {
    notRendered[route.id] = reason;
    input.onNotRendered?.(route, reason, err);
  };
  const deadline = Date.now() + input.budgetMs;
  const routes = withServerBudget(createRoutes(source), REMOTE_ROUTES, {
    deadline,
    guard: input.guard && { ...input.guard, success: (remote) => answered.add(remote) },
    api: input.api,
    onNotRendered,
  });
  const handler = createStaticHandler(routes);
  const context = await handler.query(input.request, { requestContext: { api: input.api } });
  if (context instanceof Response) return { kind: 'response', response: context };
  const collector: HeadCollector = { head: null };
  const render = () =>
    renderToString(
      <HeadContext.Provider value={collector}>
        <SourceContext.Provider value={source}>
          <StaticRouterProvider
            router={createStaticRouter(handler.dataRoutes, context)}
            context={context}
            hydrate={false}
          />
        </SourceContext.Provider>
      </HeadContext.Provider>,
    );
  let html: string;
  try {
    html = render();
  } catch (err) {
    // A remote's component threw (error boundaries do not catch on the server): its route is given up as when its
    // loader fails (serverBudget.ts), and the page is rendered again around that route's boundary.
    const remote = giveUpRender(context, err, onNotRendered);
    if (!remote) throw err;
    answered.delete(remote);
    input.guard?.failure(remote);
    collector.head = null;
    html = render();
  }
  // A render that ran past the budget held the whole server meanwhile (it runs on the one thread): served, but a failure
  // of its remote, so a remote whose render keeps stalling the site has its breaker opened and is left to the browser.
  const late = Date.now() > deadline ? pageRemote(context) : null;
  if (late && answered.delete(late)) input.guard?.failure(late);
  for (const remote of answered) input.guard?.success(remote);
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

/** The page's remote route (a page has at most one), and its remote. */
const remoteMatch = (context: StaticHandlerContext) =>
  context.matches.findLast((m) => (m.route.handle as RemoteHandle | undefined)?.remote);
const pageRemote = (context: StaticHandlerContext) =>
  (remoteMatch(context)?.route.handle as RemoteHandle | undefined)?.remote ?? null;

/**
 * Marks the page's remote route as not rendered after its component threw: a ChunkLoadError from `server:<remote>`
 * (503, the browser renders the route from scratch), or a 404 when the route was answering one, so an unknown tool
 * or post stays a 404 whatever state its remote is in. Answers the remote, or null when the page has no remote route.
 */
function giveUpRender(
  context: StaticHandlerContext,
  err: unknown,
  onNotRendered: NonNullable<RenderInput['onNotRendered']>,
): string | null {
  const match = remoteMatch(context);
  if (!match) return null;
  const { remote, module } = match.route.handle as RemoteHandle;
  onNotRendered({ id: match.route.id, remote, module }, 'error', err);
  const missing = context.statusCode === 404;
  context.errors = {
    [match.route.id]: missing ? new ErrorResponse(404, 'Not Found', null) : serverGaveUp(remote, module),
  };
  context.statusCode = missing ? 404 : 503;
  return remote;
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
