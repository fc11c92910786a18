import { Router } from 'express';
import { dateOrNull } from '@aitools/contracts/dateTime';
import type { DB } from '../db/connection';
import { listToolSummaries } from '../tools/repository';
import { listPublishedPosts, listPublishedPostsDated } from '../blog/repository';
import { escapeHtml, SITE_FEEDS } from '@aitools/platform/head-tags';
import type { ReplyCache } from '../http/cachedResponse';
import { postPath, staticPaths, toolPath } from '@aitools/platform/routes';
import { llmsTxt } from './llms';

/** For crawlers: robots.txt, /llms.txt and a sitemap of every public page (tools and published posts from the database). */
export function seoRouter(db: DB, siteOrigin: string, reads: ReplyCache): Router {
  const origin = siteOrigin.replace(/^http:\/\//i, 'https://').replace(/\/+$/, '');
  const router = Router();

  router.get('/robots.txt', (_req, res) => {
    res
      .type('text/plain')
      .send(
        `User-agent: *\nAllow: /\nDisallow: /admin\nDisallow: /api/\n\nSitemap: ${origin}/sitemap.xml\n` +
          `# For language models and agents: ${origin}/llms.txt\n`,
      );
  });

  router.get(
    '/llms.txt',
    reads.route([], async () => ({
      type: 'text/plain; charset=utf-8',
      cacheControl: 'no-cache',
      body: llmsTxt(origin, await listToolSummaries(db), await listPublishedPosts(db)),
    })),
  );

  router.get(
    '/sitemap.xml',
    reads.route([], async () => {
      const day = (d?: string | null) => dateOrNull(d)?.toISOString().slice(0, 10);
      const entries: { path: string; lastmod?: string }[] = [
        ...staticPaths().map((path) => ({ path })),
        ...SITE_FEEDS.map((f) => ({ path: f.path })),
        ...(await listToolSummaries(db)).map((t) => ({ path: toolPath(t.slug), lastmod: day(t.lastUpdated) })),
        ...(await listPublishedPostsDated(db)).map((d) => ({
          path: postPath(d.post.slug),
          lastmod: d.updated?.toISOString().slice(0, 10),
        })),
      ];
      const urls = entries
        .map(
          (e) =>
            `  <url><loc>${escapeHtml(origin + (e.path === '/' ? '' : e.path))}</loc>${e.lastmod ? `<lastmod>${e.lastmod}</lastmod>` : ''}</url>`,
        )
        .join('\n');
      return {
        type: 'application/xml; charset=utf-8',
        cacheControl: 'no-cache',
        body: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`,
      };
    }),
  );
  return router;
}
