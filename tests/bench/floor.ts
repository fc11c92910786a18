/**
 * The phone rows' floor: a page as the site renders it, but whose code is only the shell's vendor chunk (React,
 * React DOM, the router and zustand: what any page's code needs before it can hydrate), evaluated, then the
 * route-ready mark. Code ready there is the least a page of this stack can read on the bench's phone, so the gap
 * between it and the page's own figure is what the site's own code costs (docs/performance.md, "Phones").
 * Benchmark only.
 */
import { createServer, request as httpRequest } from 'node:http';
import { compress } from '../../api/src/http/cachedResponse';
import { pageCodeList } from '../../api/src/ssr/pageCode';
import { freePort } from '../e2e/harness';

/** The id of the page's code list (the shell's PAGE_CODE_ID). */
const PAGE_CODE_ID = '__PAGE_CODE__';
const FLOOR_MODULE = '/__bench-floor.js';
const LIST = new RegExp(`<script type="application/json" id="${PAGE_CODE_ID}">([^<]*)</script>`);

/** The floor's start module: the vendor chunk the page names, its CommonJS packages (React, React DOM) run as the
 *  app's first calls would run them (the bundler wraps each in a function that makes its `exports` once), then the
 *  mark once a frame has passed, as the app sets it after hydrating (none if fewer than React and React DOM ran). */
export function floorModule(vendorHref: string): string {
  return `import * as vendor from ${JSON.stringify(vendorHref)};
let ran = 0;
for (const value of Object.values(vendor))
  if (typeof value === 'function' && value.length === 0 && String(value).includes('exports:{}')) ran += value() ? 1 : 0;
// No mark (so the visit fails) if the bundler's wrapper changed and React was not run.
if (ran < 2) throw new Error('the floor found ' + ran + ' packages to run in the vendor chunk');
requestAnimationFrame(() => setTimeout(() => { document.documentElement.dataset.routeReady = location.pathname; }));
`;
}

/** The page with its code list cut to the floor's module, then the shell's chunks but its entry (the vendor chunk and
 *  what it imports), which the page's start-up script preloads beside it as it does the page's; null when the page
 *  names no vendor chunk. */
export function floorHtml(html: string): { html: string; vendor: string } | null {
  const code = JSON.parse(html.match(LIST)?.[1] ?? '[]') as string[];
  const vendor = code.find((href) => /^\/assets\/vendor-[\w-]+\.js$/.test(href));
  if (!vendor) return null;
  const shellChunks = code.slice(1).filter((href) => href.startsWith('/assets/'));
  return { html: html.replace(LIST, () => pageCodeList(PAGE_CODE_ID, [FLOOR_MODULE, ...shellChunks])), vendor };
}

export interface FloorSite {
  baseUrl: string;
  stop(): Promise<void>;
}

/** Serves the floor in front of a running site: pages rewritten (and brotli-coded at the site's quality for pages),
 *  the floor's module, everything else passed through. */
export async function serveFloor(siteBaseUrl: string): Promise<FloorSite> {
  const site = new URL(siteBaseUrl);
  let vendor: string | null = null;
  const port = await freePort();
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === FLOOR_MODULE) {
      if (!vendor) return void res.writeHead(404).end();
      return void res
        .writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' })
        .end(floorModule(vendor));
    }
    const upstream = httpRequest(
      {
        host: site.hostname,
        port: site.port,
        path: url,
        method: req.method,
        // A page comes unencoded, to be rewritten; the modules as the browser asks for them.
        headers: {
          ...req.headers,
          host: site.host,
          ...((req.headers.accept ?? '').includes('text/html') ? { 'accept-encoding': 'identity' } : {}),
        },
      },
      (up) => {
        if (!(up.headers['content-type'] ?? '').includes('text/html')) {
          res.writeHead(up.statusCode ?? 502, up.headers);
          return void up.pipe(res);
        }
        const chunks: Buffer[] = [];
        up.on('data', (c: Buffer) => chunks.push(c));
        up.on('end', async () => {
          const floor = floorHtml(Buffer.concat(chunks).toString('utf8'));
          if (!floor) return void res.writeHead(502).end('the page names no vendor chunk');
          vendor = floor.vendor;
          const body = await compress(Buffer.from(floor.html), 'br');
          // The floor's module is on the page's own origin: the site's CSP still holds.
          res
            .writeHead(up.statusCode ?? 502, {
              ...up.headers,
              'content-encoding': 'br',
              'content-length': String(body.length),
            })
            .end(body);
        });
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { baseUrl: `http://localhost:${port}`, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}
