import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Request, Response } from 'express';
import type { RequestListener } from 'node:http';
import type { Logger } from 'pino';
import { renderHeadTags, serializeJsonForScript, escapeHtml, type Head } from '@aitools/platform/head-tags';
import type { ShellServer } from '@aitools/shell/server';
import { SHELL_DIST, REMOTE_NAMES } from '../paths';
import type { ServerConfig } from '../config';
import { remoteBaseUrl, type PublicRelease } from '../releases/layout';
import type { ReleaseServing, Served } from '../releases/serving';
import { createBreaker } from './breaker';
import { routePreload } from './preload';
import { importRoute } from './serverEntries';
import { inProcessApi } from './inProcessApi';
import { createStylesheetReader, inlineShellStylesheets, styleElement } from './inlineStyles';
import { pageCodeList, shellPageCode } from './pageCode';
import { allowInlineStyles } from '../middleware/security';
import { DEV_RELEASE_ID } from '../releases/layout';
import { STOP_PREVIEW_PATH } from '../releases/preview';
import { POST_PREVIEW_HEADER, type PostPreview } from '../blog/preview';
import type { JsonApi } from '@aitools/platform/contract';
import { NO_STORE, PRIVATE } from '../edge/headers';

const DEFAULT_HEAD: Head = {
  title: 'AI Tools Directory - Discover AI Tools and MCP Servers',
  description: 'A directory of 150+ AI tools and MCP servers with search, filters and expert articles.',
};

export interface PageRenderer {
  render(req: Request, res: Response): Promise<void>;
  /** The text of every inline script the pages carry (the CSP allows them by hash). */
  inlineScripts: string[];
  /** The remote that renders this path (null for the shell's own screens). */
  remoteOf(pathname: string): string | null;
  /**
   * The HTML the route at `pathname` renders (the active releases, no page around it) when the API answers the
   * paths in `answers` with those bodies: the editors' live preview, drawn by the remote's own code.
   */
  renderWith(pathname: string, answers: Record<string, unknown>): Promise<{ status: number; html: string }>;
}

/** remote -> release id of a request's previews (releases/preview.ts); none by default. */
export type PreviewsOf = (req: Request) => Record<string, string>;

/** What the page renderer reports (metrics.ts, signals.ts). */
export interface RenderObserver {
  /** A remote route's server render took `seconds` with this release. */
  rendered?(remote: string, release: string, seconds: number): void;
  /** A remote's server render failed or ran out of time. */
  renderFailed?(remote: string, release: string): void;
  /** A remote release's breaker opened (true) or closed again. */
  breaker?(remote: string, release: string, open: boolean): void;
}

export async function createPageRenderer(
  config: ServerConfig,
  logger: Logger,
  /** The JSON API app, which loaders and actions call in process. */
  apiApp: RequestListener,
  serving: ReleaseServing,
  previewsOf: PreviewsOf = () => ({}),
  /** remote -> canary release this visitor is served (releases/canary.ts); a preview wins over it. */
  canariesOf: PreviewsOf = () => ({}),
  observer: RenderObserver = {},
  /** remote -> a token for the release the page names, sent back with the visitor's error reports
   *  (releases/signalTokens.ts); none by default. */
  reportTokens: (releases: Record<string, string>) => Record<string, string> = () => ({}),
  /** The unpublished post this browser may see (blog/preview.ts); none by default. */
  postPreviewOf: (req: Request) => PostPreview | null = () => null,
): Promise<PageRenderer> {
  if (!existsSync(join(SHELL_DIST, 'server', 'entry-server.js')))
    throw new Error(
      `The shell is not built (${SHELL_DIST} has no server entry): run \`npm run build\` or \`npm start\`.`,
    );
  // The shell's server build, by its package name; its types are the shell's own contract.
  const shell: ShellServer = (await import('@aitools/shell/server')).default;
  const apiFor = inProcessApi(apiApp);
  /** The site's origin, to which a request's path is appended (render). */
  const origin = new URL(config.siteOrigin).origin;
  const readStylesheet = createStylesheetReader();
  const shellPage = inlineShellStylesheets(readFileSync(join(SHELL_DIST, 'client', 'index.html'), 'utf8'), (href) =>
    readStylesheet(join(SHELL_DIST, 'client', href), true),
  );
  const { template, modules: shellModules } = shellPageCode(
    shellPage.template,
    join(SHELL_DIST, 'client', '.vite', 'manifest.json'),
  );
  const themeScript = shell.themeBootScript();
  const codeScript = shell.pageCodeBootScript();
  // Keyed by remote and release: a new release (or a fallback) starts with a closed breaker.
  const breaker = createBreaker({
    failures: config.breakerFailures,
    coolDownMs: config.breakerCoolDownMs,
    onChange: (key, state) => {
      const [remote = key, release = '-'] = key.split('@');
      observer.breaker?.(remote, release, state === 'open');
      if (state === 'open')
        logger.error(
          { remote: key, coolDownMs: config.breakerCoolDownMs },
          'remote keeps failing on the server: not waiting on it during the cool-down',
        );
      else logger.info({ remote: key }, 'remote renders on the server again');
    },
  });

  // Imports each remote's server entry now, not in the first visitor's render budget.
  for (const remote of REMOTE_NAMES) void serving.resolve(remote, 60_000);

  const importFrom = (served: Record<string, Served>) => async (remote: string, module: string) => {
    const s = served[remote];
    if (!s?.release) throw new Error(`no intact release of ${remote}`);
    return importRoute(s.release, module, serving.entry);
  };

  return {
    inlineScripts: [themeScript, codeScript],
    remoteOf(pathname) {
      const match = shell.matchRoute(pathname);
      return match.kind === 'remote' ? match.route.remote : null;
    },
    async renderWith(pathname, answers) {
      const match = shell.matchRoute(pathname);
      const served: Record<string, Served> = Object.fromEntries(REMOTE_NAMES.map((r) => [r, serving.current(r)]));
      if (match.kind === 'remote')
        served[match.route.remote] = await serving.resolve(match.route.remote, config.renderBudgetMs);
      const real = apiFor(undefined);
      const api: JsonApi = {
        fetchJson: (path, init) =>
          Object.hasOwn(answers, path)
            ? Promise.resolve({ ok: true, status: 200, body: answers[path] as never })
            : real.fetchJson(path, init),
      };
      const result = await shell.renderRequest({
        request: new globalThis.Request(new URL(pathname, config.siteOrigin).href),
        api,
        budgetMs: config.renderBudgetMs,
        guard: { allow: () => true, success: () => {}, failure: () => {} },
        importModule: importFrom(served),
      });
      if (result.kind === 'response') return { status: result.response.status, html: '' };
      return { status: result.status, html: result.html };
    },
    async render(req, res) {
      const started = Date.now();
      // The request target is a path: one that starts with `//` names no host (resolved against the origin, it
      // would), so it is appended to the origin, where it matches no route.
      const url = URL.parse(req.originalUrl.startsWith('/') ? origin + req.originalUrl : req.originalUrl);
      if (!url) return void res.status(400).type('text/plain').send('The address is not valid.\n');
      const match = shell.matchRoute(url.pathname);
      // One choice of release per remote for the whole request: the page names what it was rendered with. A
      // previewing browser gets its previewed release of that remote (the browser loads what the page names).
      const previews = previewsOf(req);
      const pins = { ...canariesOf(req), ...previews };
      const served: Record<string, Served> = Object.fromEntries(
        REMOTE_NAMES.map((r) => [r, serving.current(r, pins[r])]),
      );
      const keyOf = (remote: string) => `${remote}@${served[remote]?.release?.id ?? '-'}`;
      const remoteStyles: string[] = [];
      const code = [...shellModules];
      const inlineStyles = [...shellPage.styles];

      if (match.kind === 'remote') {
        const { remote: name, module } = match.route;
        // Makes sure the chosen release's server entry imports (else the next intact release); not while its
        // breaker is open.
        served[name] = await serving.resolve(
          name,
          breaker.state(keyOf(name)) === 'open' ? 0 : config.renderBudgetMs,
          pins[name],
        );
        const chosen = served[name];
        if (chosen?.release) {
          // The route's stylesheet, and its federation entry and the chunks of its module, fetched in parallel with
          // the shell's code instead of one after another.
          const base = remoteBaseUrl(name, chosen.release.id);
          const preload = routePreload(chosen.release, module);
          const modules = [chosen.public.entry, ...preload.files.map((f) => base + f)];
          const { release } = chosen;
          const styles = release.css.map((file, i) => {
            const style = {
              href: chosen.public.css[i]!,
              css: readStylesheet(join(release.clientDir, file), release.id !== DEV_RELEASE_ID),
            };
            const element = styleElement(style);
            if (element) inlineStyles.push(style.css);
            return element ?? `<link rel="stylesheet" href="${escapeHtml(style.href)}">`;
          });
          remoteStyles.push(...styles);
          code.push(...modules);
        }
      }
      const releases: Record<string, PublicRelease> = {};
      for (const [remote, s] of Object.entries(served)) if (s.release) releases[remote] = s.public;

      // A browser holding a post's preview link: its calls carry the signed grant, which the blog API checks.
      const postPreview = postPreviewOf(req);
      const draftShown = postPreview !== null && url.pathname === `/blog/${postPreview.slug}`;
      const visitorApi = apiFor(req.ip);
      const api: JsonApi = postPreview
        ? {
            fetchJson: (path, init) =>
              visitorApi.fetchJson(path, {
                ...init,
                headers: { ...init?.headers, [POST_PREVIEW_HEADER]: postPreview.token },
              }),
          }
        : visitorApi;
      const result = await shell.renderRequest({
        request: toFetchRequest(req, url),
        api,
        budgetMs: Math.max(0, config.renderBudgetMs - (Date.now() - started)),
        guard: {
          allow: (r) => breaker.allow(keyOf(r)),
          success: (r) => breaker.success(keyOf(r)),
          failure: (r) => {
            observer.renderFailed?.(r, served[r]?.release?.id ?? '-');
            breaker.failure(keyOf(r));
          },
        },
        importModule: importFrom(served),
        onNotRendered: (route, reason, err) =>
          logger.warn(
            {
              ...(err ? { err } : {}),
              remote: route.remote,
              module: route.module,
              route: route.id,
              reason,
              path: url.pathname,
            },
            'route not rendered on the server; the browser renders it',
          ),
      });

      if (match.kind === 'remote')
        observer.rendered?.(
          match.route.remote,
          served[match.route.remote]?.release?.id ?? '-',
          (Date.now() - started) / 1000,
        );

      if (result.kind === 'response') {
        // A route's own answer (a form's redirect after its post): this visitor's.
        res.set('Cache-Control', PRIVATE);
        const location = result.response.headers.get('Location');
        if (location && result.response.status >= 300 && result.response.status < 400)
          return void res.redirect(result.response.status, location);
        res
          .status(result.response.status)
          .type('text/plain')
          .send(await result.response.text());
        return;
      }

      const notRendered = Object.keys(result.notRendered).length ? { notRendered: result.notRendered } : {};
      const bar =
        previewBar(previews, served, url.pathname + url.search) +
        (draftShown ? postPreviewBar(postPreview.slug, url.pathname + url.search) : '');
      if (bar) inlineStyles.push(PREVIEW_BAR_CSS);
      const signals = reportTokens(Object.fromEntries(Object.entries(releases).map(([r, p]) => [r, p.id])));
      const state = { releases, signals, router: result.hydration, config: browserConfig(config), ...notRendered };
      // Replacer functions: page content may contain "$&" and the like, which a replacement string would expand.
      const html = template
        .replace('<!--app-theme-->', () => `<script>${themeScript}</script>`)
        .replace('<!--app-head-->', () =>
          [
            renderHeadTags(result.head ?? DEFAULT_HEAD, { noindex: draftShown }),
            ...remoteStyles,
            ...(bar ? [`<style>${PREVIEW_BAR_CSS}</style>`] : []),
            pageCodeList(shell.PAGE_CODE_ID, code),
            `<script>${codeScript}</script>`,
          ].join('\n'),
        )
        .replace('<div id="root">', () => `${bar}<div id="root">`)
        .replace('<!--app-html-->', () => result.html)
        .replace(
          '<!--app-state-->',
          () => `<script type="application/json" id="${shell.PAGE_STATE_ID}">${serializeJsonForScript(state)}</script>`,
        );
      const policy = res.getHeader('Content-Security-Policy');
      if (typeof policy === 'string') res.set('Content-Security-Policy', allowInlineStyles(policy, inlineStyles));
      // A page is this visitor's until the page cache finds it is everyone's and marks it shared (ssr/pageCache.ts);
      // a previewed page is this browser's alone, not even kept by it, and a previewed draft is indexed by no one.
      if (draftShown) res.set('X-Robots-Tag', 'noindex, nofollow');
      res
        .status(result.status)
        .set('Cache-Control', bar ? NO_STORE : PRIVATE)
        .type('html')
        .send(html);
    },
  };
}

const PREVIEW_BAR_CSS =
  '.preview-bar{position:sticky;top:0;z-index:1000;display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:center;padding:.5rem 1rem;background:#4c1d95;color:#fff;font:14px/1.4 system-ui,sans-serif}.preview-bar p{margin:0}.preview-bar form{margin:0}.preview-bar button{font:inherit;padding:.25rem .75rem;border-radius:4px;border:1px solid #fff;background:#fff;color:#4c1d95;cursor:pointer}';

/** The bar a previewing browser sees above the page: outside the React root (the server's alone, never hydrated),
 *  with a plain form that ends the preview without JavaScript. */
function previewBar(previews: Record<string, string>, served: Record<string, Served>, back: string): string {
  const items = Object.entries(previews).map(([remote, id]) => {
    const shown = served[remote]?.release?.id === id;
    return `<p>Previewing ${escapeHtml(remote)} <code>${escapeHtml(id)}</code>${shown ? '' : ' (not servable: showing the active release)'}</p>`;
  });
  if (!items.length) return '';
  return `<aside class="preview-bar" aria-label="Release preview">${items.join('')}<form method="post" action="${STOP_PREVIEW_PATH}"><input type="hidden" name="back" value="${escapeHtml(back)}"><button type="submit">Stop preview</button></form></aside>`;
}

/** The bar above a post shown through its preview link (styled and placed as the release preview's). */
function postPreviewBar(slug: string, back: string): string {
  return `<aside class="preview-bar" aria-label="Post preview"><p>Previewing the unpublished post <code>${escapeHtml(slug)}</code></p><form method="post" action="${STOP_PREVIEW_PATH}"><input type="hidden" name="back" value="${escapeHtml(back)}"><button type="submit">Stop preview</button></form></aside>`;
}

/** The visitor's request as the router sees it: a form post carries its (already size-limited) body and its own
 *  Content-Type, or neither when it had none. */
function toFetchRequest(req: Request, url: URL): globalThis.Request {
  if (req.method !== 'POST') return new globalThis.Request(url.href);
  const type = req.headers['content-type'];
  return new globalThis.Request(url.href, {
    method: 'POST',
    headers: type ? { 'content-type': type } : {},
    body: Buffer.isBuffer(req.body) ? new Uint8Array(req.body) : new Uint8Array(0),
  });
}

export function browserConfig(config: ServerConfig) {
  return {
    apiBase: config.apiBase,
    siteOrigin: config.siteOrigin,
    contactEmail: config.contactEmail,
    ...(config.analyticsEndpoint ? { analyticsEndpoint: config.analyticsEndpoint } : {}),
    ...(config.devAuthServer ? { devAuthServer: config.devAuthServer } : {}),
  };
}
