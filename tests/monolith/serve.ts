/**
 * Serves the monolith build in front of a running site: pages come from the site's server render unchanged but for
 * their browser code (the monolith's entry and the route's chunks instead of the shell, its shared chunks and the
 * remote's federated modules); /monolith/ files come from the build; everything else passes through. Benchmark only.
 */
import { spawnSync } from 'node:child_process';
import { createServer, request as httpRequest } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { freePort } from '../e2e/harness';
import { manifestClosure, pageCodeList, type ManifestChunk as BuildChunk } from '../../api/src/ssr/pageCode';

/** The id of the page's code list (the shell's PAGE_CODE_ID). */
const PAGE_CODE_ID = '__PAGE_CODE__';

const OUT_DIR = join(import.meta.dirname, '..', '.monolith');

/** Builds the monolith into tests/.monolith (vite.config.ts beside this file). */
export function buildMonolith(): void {
  const r = spawnSync(
    'pnpm',
    ['exec', 'vite', 'build', '--config', 'monolith/vite.config.ts', '--configLoader', 'runner'],
    { cwd: join(import.meta.dirname, '..'), encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`monolith build failed:\n${r.stdout}${r.stderr}`);
}

type ManifestChunk = BuildChunk & { src?: string };

export interface MonolithSite {
  baseUrl: string;
  stop(): Promise<void>;
}

/** Rewrites a page's browser code to the monolith's. */
export function monolithHtml(html: string, manifest: Record<string, ManifestChunk>, base = '/monolith/'): string {
  const entry = Object.values(manifest).find((c) => c.src === 'src/main.tsx');
  if (!entry) throw new Error('the monolith build has no entry');
  // The page's code list (shell/src/remotes/pageCode.ts): the route's own module, as the server lists it for the
  // federated build, becomes the monolith's chunks of that module.
  const list = new RegExp(`<script type="application/json" id="${PAGE_CODE_ID}">([^<]*)</script>`);
  const code = JSON.parse(html.match(list)?.[1] ?? '[]') as string[];
  const routeKeys = code.flatMap((href) => {
    const [, remote, name] = href.match(/^\/remotes\/(\w+)\/.*__federation_expose_(\w+)/) ?? [];
    const key = remote && Object.keys(manifest).find((k) => manifest[k].name === name && k.includes(`mfe-${remote}/`));
    return key ? [key] : [];
  });
  const files = manifestClosure(manifest, routeKeys).filter((f) => f !== entry.file);
  return html.replace(list, () =>
    pageCodeList(
      PAGE_CODE_ID,
      [entry.file, ...files].map((f) => base + f),
    ),
  );
}

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };

export async function serveMonolith(siteBaseUrl: string): Promise<MonolithSite> {
  const manifestFile = join(OUT_DIR, '.vite', 'manifest.json');
  if (!existsSync(manifestFile))
    throw new Error(
      'no monolith build: cd tests && pnpm exec vite build --config monolith/vite.config.ts --configLoader runner',
    );
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  const site = new URL(siteBaseUrl);
  const port = await freePort();
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url.startsWith('/monolith/')) {
      const file = normalize(join(OUT_DIR, url.slice('/monolith/'.length).split('?')[0]));
      if (!file.startsWith(OUT_DIR) || !existsSync(file)) return void res.writeHead(404).end();
      const body = gzipSync(readFileSync(file));
      return void res
        .writeHead(200, {
          'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
          'content-encoding': 'gzip',
          'cache-control': 'public, max-age=31536000, immutable',
        })
        .end(body);
    }
    const upstream = httpRequest(
      {
        host: site.hostname,
        port: site.port,
        path: url,
        method: req.method,
        headers: { ...req.headers, host: site.host, 'accept-encoding': 'identity' },
      },
      (up) => {
        const html = (up.headers['content-type'] ?? '').includes('text/html');
        if (!html) {
          res.writeHead(up.statusCode ?? 502, up.headers);
          return void up.pipe(res);
        }
        const chunks: Buffer[] = [];
        up.on('data', (c: Buffer) => chunks.push(c));
        up.on('end', () => {
          const body = gzipSync(monolithHtml(Buffer.concat(chunks).toString('utf8'), manifest));
          const headers = { ...up.headers, 'content-encoding': 'gzip', 'content-length': String(body.length) };
          // The page's script is now our own file, on the same origin: the site's CSP still holds.
          res.writeHead(up.statusCode ?? 502, headers).end(body);
        });
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { baseUrl: `http://localhost:${port}`, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}
