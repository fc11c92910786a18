import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { renderHeadTags, serializeJsonForScript, escapeHtml, type Head } from '@aitools/platform/head-tags';
import type { RouteContext } from '@aitools/platform/contract';
import { jsonResult } from '@aitools/platform/api';
import { SHELL_DIST, REMOTE_NAMES } from '../paths';
import type { ServerConfig } from '../config';
import { publicManifest, remoteBaseUrl, resolveRelease } from '../releases/manifest';
import { routePreloadFiles } from './preload';
import { importRoute } from './serverEntries';

/** The shell's server build (shell/src/entry-server.tsx). */
interface ShellServer {
  render(input: { url: string; releases: Record<string, unknown>; remote?: { remote: string; module: string; Component?: unknown; data?: unknown } }): { html: string; head: Head | null };
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
const LOADER_TIMEOUT_MS = 10_000;

export interface PageRenderer {
  render(req: Request, res: Response): Promise<void>;
}

export async function createPageRenderer(config: ServerConfig, logger: Logger): Promise<PageRenderer> {
  const shellEntry = join(SHELL_DIST, 'server', 'entry-server.js');
  if (!existsSync(shellEntry)) throw new Error(`The shell is not built (${shellEntry} is missing): run \`npm run build\` or \`npm start\`.`);
  const shell = (await import(pathToFileURL(shellEntry).href)) as ShellServer;
  const template = readFileSync(join(SHELL_DIST, 'client', 'index.html'), 'utf8');
  const themeScript = shell.themeBootScript();

  return {
    async render(req, res) {
      const url = new URL(req.originalUrl, config.siteOrigin);
      const match = shell.matchRoute(url.pathname);
      const releases = publicManifest(config.releasesDir, REMOTE_NAMES, config.devRemotes);
      let status = match.kind === 'not-found' ? 404 : 200;
      let remote: { remote: string; module: string; Component?: unknown; data?: unknown } | undefined;
      let data: unknown;
      const preload: string[] = [];

      if (match.kind === 'remote') {
        const { remote: name, module } = match.route;
        remote = { remote: name, module };
        const release = resolveRelease(config.releasesDir, name, config.devRemotes);
        const pub = releases[name];
        if (pub && release) {
          // The route's stylesheet, its federation entry and the chunks of its module: fetched in parallel with
          // the shell's code instead of one after another.
          const base = remoteBaseUrl(name, release.id);
          const modules = [pub.entry, ...routePreloadFiles(release, module).map((f) => base + f)];
          preload.push(...pub.css.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`), ...modules.map((href) => `<link rel="modulepreload" href="${escapeHtml(href)}">`));
        }
        if (release) {
          try {
            const route = await importRoute(release, module);
            remote.Component = route.Component;
            if (route.load) {
              const result = await withTimeout(route.load(loaderContext(req, url, match.params)), LOADER_TIMEOUT_MS);
              data = result.data;
              remote.data = data;
              if (result.status) status = result.status;
            }
          } catch (err) {
            // The page still renders: the shell frame now, the route in the browser.
            logger.error({ err, remote: name, release: release.id, module }, 'server entry failed; rendering the shell frame only');
            remote = { remote: name, module };
            data = undefined;
          }
        }
      }

      let rendered: { html: string; head: Head | null };
      try {
        rendered = shell.render({ url: url.pathname + url.search, releases, remote });
      } catch (err) {
        logger.error({ err, url: url.pathname }, 'server render failed; rendering the shell frame only');
        data = undefined;
        rendered = shell.render({ url: url.pathname + url.search, releases, remote: remote && { remote: remote.remote, module: remote.module } });
      }

      const state = { url: url.pathname + url.search, releases, data, config: browserConfig(config) };
      const nonce = res.locals.cspNonce as string;
      // Replacer functions: page content may contain "$&" and the like, which a replacement string would expand.
      const html = template
        .replace('<!--app-theme-->', () => `<script nonce="${nonce}">${themeScript}</script>`)
        .replace('<!--app-head-->', () => [renderHeadTags(rendered.head ?? DEFAULT_HEAD), ...preload].join('\n'))
        .replace('<!--app-html-->', () => rendered.html)
        .replace('<!--app-state-->', () => `<script type="application/json" id="${shell.PAGE_STATE_ID}">${serializeJsonForScript(state)}</script>`);
      res.status(status).set('Cache-Control', 'no-cache').type('html').send(html);
    },
  };
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

/** Loaders fetch from this same server over loopback: the same API the browser uses. */
function loaderContext(req: Request, url: URL, params: Record<string, string | undefined>): RouteContext {
  const origin = `http://127.0.0.1:${req.socket.localPort}`;
  return {
    params,
    url,
    async fetchJson<T>(path: string) {
      return jsonResult<T>(await fetch(origin + path, { headers: { Accept: 'application/json', 'x-internal-render': '1' } }));
    },
  };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let t: NodeJS.Timeout;
  return Promise.race([p, new Promise<never>((_, rej) => (t = setTimeout(() => rej(new Error(`loader timed out after ${ms} ms`)), ms)))]).finally(() => clearTimeout(t));
}
