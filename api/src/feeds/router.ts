/**
 * Atom feeds: the blog's published posts, and the directory's new and updated tools and MCP servers (a server's
 * registry record updated by an import counts as an update). Listed in the sitemap and advertised on every page.
 */
import { Router } from 'express';
import { dateOrNull } from '@aitools/contracts/dateTime';
import { atomXml, type AtomEntry } from './atom';
import { jsonText, type DB } from '../db/connection';
import { listPublishedPostsDated, type DatedPost } from '../blog/repository';
import { canonicalUrl, SITE_FEEDS } from '@aitools/platform/head-tags';
import { pathOf, postPath, toolPath } from '@aitools/platform/routes';
import type { Reply, ReplyCache } from '../http/cachedResponse';

const FEED_ITEMS = 50;
const [BLOG_FEED, TOOLS_FEED] = SITE_FEEDS;

export interface ToolFeedItem {
  slug: string;
  name: string;
  description: string;
  category: string;
  isMcp: boolean;
  created: Date | null;
  updated: Date;
}

/** Newest first: a tool's date is its last update, or its server record's, whichever is later. */
async function toolFeedItems(db: DB, limit = FEED_ITEMS): Promise<ToolFeedItem[]> {
  const rows = await db
    .selectFrom('tools as t')
    .leftJoin('mcp_servers as s', 's.tool_slug', 't.slug')
    .select([
      't.slug',
      't.name',
      't.category',
      jsonText(db, 't.doc', 'description').as('description'),
      jsonText(db, 't.doc', 'lastUpdated').as('last_updated'),
      jsonText(db, 't.doc', 'createdAt').as('created_at'),
      's.updated_at as server_updated',
    ])
    .where('t.hidden_at', 'is', null)
    .execute();
  const items: ToolFeedItem[] = [];
  for (const r of rows) {
    const created = dateOrNull(r.created_at);
    const dates = [dateOrNull(r.last_updated), dateOrNull(r.server_updated), created].filter(
      (d): d is Date => d !== null,
    );
    if (!dates.length) continue;
    const isMcp = r.category === 'MCP' || r.category === 'MCP Servers' || r.server_updated !== null;
    items.push({
      slug: r.slug,
      name: r.name,
      description: r.description ?? '',
      category: isMcp ? 'MCP Servers' : r.category === 'AI Tools' ? 'AI Assistants' : (r.category ?? 'AI Assistants'),
      isMcp,
      created,
      updated: new Date(Math.max(...dates.map((d) => d.getTime()))),
    });
  }
  return items
    .sort((a, b) => b.updated.getTime() - a.updated.getTime() || a.name.localeCompare(b.name))
    .slice(0, limit);
}

export function feedsRouter(db: DB, siteOrigin: string, reads: ReplyCache): Router {
  const url = (path: string) => canonicalUrl(siteOrigin, path);
  const router = Router();
  const atom = (xml: string): Reply => ({
    type: 'application/atom+xml; charset=utf-8',
    cacheControl: 'no-cache',
    body: xml,
  });
  /** A feed of the site, at `feed.path`, about the page at `about`. */
  const siteFeed = (
    feed: { path: string; title: string },
    about: string,
    subtitle: string,
    updated: Date,
    entries: AtomEntry[],
  ) =>
    atom(
      atomXml({
        id: url(about),
        title: feed.title,
        subtitle,
        link: url(about),
        self: url(feed.path),
        updated,
        entries,
      }),
    );

  router.get(
    BLOG_FEED.path,
    reads.route([], async () => {
      const dated = (await listPublishedPostsDated(db)).slice(0, FEED_ITEMS);
      // A post's entry is updated when it was edited after its publication; the feed, when its latest entry was.
      const updatedOf = (d: DatedPost) => d.updated ?? new Date(0);
      return siteFeed(
        BLOG_FEED,
        pathOf('/blog'),
        'Expert insights on AI tools, automation workflows & enterprise adoption',
        new Date(Math.max(0, ...dated.map((d) => updatedOf(d).getTime()))),
        dated.map((d) => ({
          title: d.post.title,
          id: url(postPath(d.post.slug)),
          link: url(postPath(d.post.slug)),
          updated: updatedOf(d),
          published: d.published ?? new Date(0),
          summary: d.post.excerpt ?? d.post.description ?? undefined,
          authors: [
            typeof d.post.author === 'string'
              ? d.post.author
              : ((d.post.author as { name?: string } | null | undefined)?.name ?? 'AI Tools Team'),
          ],
          categories: d.post.category ? [d.post.category] : [],
        })),
      );
    }),
  );

  router.get(
    TOOLS_FEED.path,
    reads.route([], async () => {
      const items = await toolFeedItems(db);
      return siteFeed(
        TOOLS_FEED,
        pathOf('/'),
        'The latest AI tools and MCP servers added to or updated in the directory',
        items[0]?.updated ?? new Date(0),
        items.map((t) => {
          const fresh = t.created !== null && t.created.getTime() === t.updated.getTime();
          return {
            title: `${t.name}${t.isMcp ? ' (MCP server)' : ''}: ${fresh ? 'new' : 'updated'}`,
            id: url(toolPath(t.slug)),
            link: url(toolPath(t.slug)),
            updated: t.updated,
            ...(t.created ? { published: t.created } : {}),
            summary: t.description,
            categories: [t.category],
          };
        }),
      );
    }),
  );
  return router;
}
