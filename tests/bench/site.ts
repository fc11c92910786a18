/** This checkout's production build, served by the e2e harness the way `npm start` serves it (logging on). */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { COVER_WIDTHS, IMAGE_FORMATS } from '@aitools/contracts/images';
import { REPO_ROOT, startSite, type Site } from '../e2e/harness';

/** `npm run build`: the shell when it changed, and a release of every changed remote into api/var/releases. */
export function buildCurrent(): void {
  const r = spawnSync('node', ['scripts/build.mjs'], { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0)
    throw new Error(`npm run build failed:\n${`${r.stdout}${r.stderr}`.split('\n').slice(-20).join('\n')}`);
}

/** Serves the built releases with a temp database (or `databasePath`, which stays), production log level. */
export async function startCurrent(databasePath?: string): Promise<Site> {
  const site = await startSite({
    releasesDir: join(REPO_ROOT, 'api', 'var', 'releases'),
    // The MCP row loads /mcp from one address: the site's per-address limit would answer it with 429s.
    extraEnv: {
      LOG_LEVEL: 'info',
      MCP_RATE_LIMIT: '1000000000',
      ...(databasePath ? { DATABASE_PATH: databasePath } : {}),
    },
    quiet: true,
  });
  return site;
}

/** Draws the seed's pictures now (kept in api/var/images across runs), so the server's background warm-up of
 *  them does not share the CPU with the measurements. */
export async function drawPictures(baseUrl: string): Promise<void> {
  const tools = ((await (await fetch(`${baseUrl}/api/tools`)).json()) as { data: { slug: string }[] }).data;
  const posts = ((await (await fetch(`${baseUrl}/api/blog/public/posts`)).json()) as { data: { slug: string }[] }).data;
  const paths = [
    ...tools.map((t) => `/og/tool/${t.slug}.png`),
    ...posts.flatMap((p) => [
      `/og/blog/${p.slug}.png`,
      // Every copy of the cover the blog's pages offer: each width, as WebP and as PNG.
      ...IMAGE_FORMATS.flatMap((format) =>
        ['', ...COVER_WIDTHS.map((w) => `?w=${w}`)].map((width) => `/covers/${p.slug}.${format}${width}`),
      ),
    ]),
  ];
  for (const path of paths) await (await fetch(baseUrl + path)).arrayBuffer();
}
