import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Express, Request, Response } from 'express';
import type { Logger } from 'pino';
import { renderHeadTags, serializeJsonForScript, escapeHtml, type Head } from '@aitools/platform/head-tags';
import type { JsonApi } from '@aitools/platform/contract';
import { SHELL_DIST, REMOTE_NAMES } from '../paths';
import type { ServerConfig } from '../config';
import { publicManifest, remoteBaseUrl, resolveRelease } from '../releases/manifest';
import { routePreloadFiles } from './preload';
import { importRoute } from './serverEntries';
import { inProcessApi } from './inProcessApi';

/** The shell's server build (shell/src/entry-server.tsx). */
interface ShellServer {
  renderRequest(input: {
    request: globalThis.Request;
    importModule: (remote: string, module: string) => Promise<unknown>;
    api: JsonApi;
    onRemoteError?: (remote: string, module: string, err: unknown) => void;
  }): Promise<
    | { kind: 'response'; response: globalThis.Response }
    | { kind: 'page'; status: number; html: string; head: Head | null; hydration: unknown }
  >;
  matchRoute(pathname: string):
    | { kind: 'remote'; route: { path: string; remote: string; module: string }; params: Record<string, string | undefined> }
    | { kind: 'admin' }
    | { kind: 'not-found' };
  themeBootScript(): string;
  PAGE_STATE_ID: string;
}

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
}

export async function createPageRenderer(config: ServerConfig, logger: Logger, apiApp: Express): Promise<PageRenderer> {
  const shellEntry = join(SHELL_DIST, 'server', 'entry-server.js');
  if (!existsSync(shellEntry)) throw new Error(`The shell is not built (${shellEntry} is missing): run \`npm run build\` or \`npm start\`.`);
  const shell = (await import(pathToFileURL(shellEntry).href)) as ShellServer;
  const template = readFileSync(join(SHELL_DIST, 'client', 'index.html'), 'utf8');
  const themeScript = shell.themeBootScript();

  return {
    inlineScripts: [themeScript],
    remoteOf(pathname) {
      const match = shell.matchRoute(pathname);
      return match.kind === 'remote' ? match.route.remote : null;
    },
    async render(req, res) {
      const url = new URL(req.originalUrl, config.siteOrigin);
      const match = shell.matchRoute(url.pathname);
      const releases = publicManifest(config.releasesDir, REMOTE_NAMES, config.devRemotes);
      const preload: string[] = [];

      if (match.kind === 'remote') {
        const { remote: name, module } = match.route;
        const release = resolveRelease(config.releasesDir, name, config.devRemotes);
        const pub = releases[name];
        if (pub && release) {
          // The route's stylesheet, its federation entry and the chunks of its module: fetched in parallel with
          // the shell's code instead of one after another.
          const base = remoteBaseUrl(name, release.id);
          const modules = [pub.entry, ...routePreloadFiles(release, module).map((f) => base + f)];
          preload.push(...pub.css.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`), ...modules.map((href) => `<link rel="modulepreload" href="${escapeHtml(href)}">`));
        }
      }

      const result = await shell.renderRequest({
        request: toFetchRequest(req, url),
        api: inProcessApi(apiApp, req.ip),
        async importModule(remote, module) {
          const release = resolveRelease(config.releasesDir, remote, config.devRemotes);
          if (!release) throw new Error(`no active release of ${remote}`);
          return importRoute(release, module);
        },
        onRemoteError: (remote, module, err) => logger.error({ err, remote, module }, 'remote could not render on the server; the browser will load it'),
      });

      if (result.kind === 'response') {
        const location = result.response.headers.get('Location');
        if (location && result.response.status >= 300 && result.response.status < 400) return void res.redirect(result.response.status, location);
        res.status(result.response.status).type('text/plain').send(await result.response.text());
        return;
      }

      const state = { releases, router: result.hydration, config: browserConfig(config) };
      // Replacer functions: page content may contain "$&" and the like, which a replacement string would expand.
      const html = template
        .replace('<!--app-theme-->', () => `<script>${themeScript}</script>`)
        .replace('<!--app-head-->', () => [renderHeadTags(result.head ?? DEFAULT_HEAD), ...preload].join('\n'))
        .replace('<!--app-html-->', () => result.html)
        .replace('<!--app-state-->', () => `<script type="application/json" id="${shell.PAGE_STATE_ID}">${serializeJsonForScript(state)}</script>`);
      res.status(result.status).set('Cache-Control', 'no-cache').type('html').send(html);
    },
  };
}

/** The visitor's request as the router sees it: a form post carries its (already size-limited) body. */
function toFetchRequest(req: Request, url: URL): globalThis.Request {
  const post = req.method === 'POST';
  const body = post && Buffer.isBuffer(req.body) ? new Uint8Array(req.body) : undefined;
  return new globalThis.Request(url.href, {
    method: post ? 'POST' : 'GET',
    headers: post ? { 'content-type': String(req.headers['content-type'] ?? '') } : {},
    ...(post ? { body: body ?? '' } : {}),
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
