import { beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import type { Express } from 'express';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { createApp } from '../app';
import { loadConfig } from '../config';
import { jsonText, type DB } from '../db/connection';
import { openTestDatabase } from '../../test/testDatabase';
import { createLogger } from '../middleware/logger';
import { seed } from '../seed';
import { listPublishedPosts } from '../blog/repository';
import { renderHeadTags } from '@aitools/platform/head-tags';
import { upsertPost } from '../blog/repository';
import { parseFeed, HOSTILE } from '../../test/feedCheck';
import { xmlChars } from './atom';
import { publicWrite } from '../content/dataVersion';

let app: Express;
let db: DB;
const ORIGIN = 'https://dir.example';
/** The newest 50 entries per feed (docs/mcp.md, Feeds). */
const FEED_SIZE = 50;

beforeAll(async () => {
  db = await openTestDatabase();
  await seed(db);
  app = await createApp({
    config: loadConfig({ ...process.env, NODE_ENV: 'test', SITE_ORIGIN: ORIGIN }),
    db,
    logger: createLogger('silent'),
    pages: false,
  });
});

/** Atom text constructs carry a type attribute: the parser then gives { '#text', '@_type' }. */
const text = (v: string | { '#text': string }) => (typeof v === 'string' ? v : v['#text']);
const parser = new XMLParser({
  ignoreAttributes: false,
  isArray: (name) => name === 'entry' || name === 'link' || name === 'category',
});

async function atom(path: string) {
  const res = await request(app).get(path);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/atom\+xml/);
  expect(XMLValidator.validate(res.text)).toBe(true);
  const doc = parser.parse(res.text);
  expect(doc.feed['@_xmlns']).toBe('http://www.w3.org/2005/Atom');
  return doc.feed as {
    title: string;
    updated: string;
    entry: { title: string | { '#text': string }; id: string; updated: string; link: { '@_href': string }[] }[];
  };
}

describe('feeds', () => {
  it('the blog feed lists the published posts, newest first, linked to their pages', async () => {
    const feed = await atom('/feeds/blog.xml');
    const posts = await listPublishedPosts(db);
    expect(feed.entry.map((e) => e.id)).toEqual(posts.slice(0, FEED_SIZE).map((p) => `${ORIGIN}/blog/${p.slug}`));
    expect(feed.entry.map((e) => text(e.title))).toEqual(posts.slice(0, FEED_SIZE).map((p) => p.title));
    const dates = feed.entry.map((e) => Date.parse(e.updated));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    expect(feed.updated).toBe(feed.entry[0].updated);
  });

  it('the tools feed lists the newest tools and MCP servers by their last update', async () => {
    const feed = await atom('/feeds/tools.xml');
    expect(feed.entry).toHaveLength(FEED_SIZE);
    const day = jsonText(db, 'doc', 'lastUpdated');
    const rows = await db
      .selectFrom('tools')
      .select(['slug', 'name', day.as('day')])
      .orderBy(day, 'desc')
      .orderBy('name')
      .execute();
    // The newest entry is the most recently updated tool in the database.
    const newestDay = rows[0].day;
    expect(feed.entry[0].updated.slice(0, 10)).toBe(newestDay);
    expect(rows.filter((r) => r.day === newestDay).map((r) => `${ORIGIN}/tool/${r.slug}`)).toContain(feed.entry[0].id);
    for (const e of feed.entry) {
      const slug = e.id.slice(`${ORIGIN}/tool/`.length);
      const row = rows.find((r) => r.slug === slug)!;
      expect(text(e.title).startsWith(row.name)).toBe(true);
      expect(e.link[0]['@_href']).toBe(e.id);
    }
    expect(feed.entry.some((e) => text(e.title).includes('(MCP server)'))).toBe(true);
  });

  it("an edit of a published post moves its entry's and the feed's <updated>, and its sitemap <lastmod>", async () => {
    const before = await atom('/feeds/blog.xml');
    const oldest = before.entry.at(-1)!;
    const slug = oldest.id.slice(`${ORIGIN}/blog/`.length);
    const edited = '2099-03-04T05:06:07.000Z';
    // What a save in the console writes (blog/editing.ts), with the data version bump that refreshes the caches.
    await publicWrite(db, async (trx) => {
      await trx
        .updateTable('blog_posts')
        .set({ title: 'An edited title', updated_at: edited })
        .where('slug', '=', slug)
        .execute();
      return true;
    });
    const feed = await atom('/feeds/blog.xml');
    const entry = feed.entry.find((e) => e.id === oldest.id)! as (typeof feed.entry)[number] & { published: string };
    expect(entry.updated).toBe(edited);
    expect(entry.published).toBe((oldest as typeof entry).published);
    expect(feed.updated).toBe(edited);
    const sitemap = (await request(app).get('/sitemap.xml')).text;
    expect(sitemap).toContain(`<loc>${ORIGIN}/blog/${slug}</loc><lastmod>2099-03-04</lastmod>`);
  });

  it('are listed in the sitemap and advertised in every page head', async () => {
    const sitemap = await request(app).get('/sitemap.xml');
    expect(sitemap.text).toContain(`<loc>${ORIGIN}/feeds/blog.xml</loc>`);
    expect(sitemap.text).toContain(`<loc>${ORIGIN}/feeds/tools.xml</loc>`);
    const head = renderHeadTags({ title: 'x' });
    expect(head).toContain(
      '<link rel="alternate" type="application/atom+xml" title="AI Tools Blog" href="/feeds/blog.xml">',
    );
    expect(head).toContain('href="/feeds/tools.xml"');
  });
});

describe('feeds with any text an editor or a submission can store', () => {
  type TextConstruct = { '@_type': string; '#text': string };
  /** What XML 1.0 can carry of HOSTILE: all but the C0 controls other than tab and newlines, and U+FFFE. */
  const carried = (stored: string) => stored.replace(/[\u0001\u0008\u000b\u001f\uFFFE]/g, '');
  const title = `Colors ${HOSTILE}`;
  const category = `Cat ${HOSTILE}`;
  const summary = `Summary <p onclick="x()">${HOSTILE}</p>`;

  beforeAll(async () => {
    await upsertPost(db, {
      slug: 'hostile-feed-text',
      title,
      status: 'published',
      published_at: '2999-01-01T00:00:00.000Z',
      publishedAt: '2999-01-01T00:00:00.000Z',
      excerpt: summary,
      category,
      content: 'Body',
      author: `Author ${HOSTILE}`,
    });
    const tool = await db.selectFrom('tools').select(['slug', 'doc']).orderBy('slug').executeTakeFirstOrThrow();
    const doc = JSON.parse(tool.doc) as Record<string, unknown>;
    await db
      .updateTable('tools')
      .set({
        name: title,
        category,
        doc: JSON.stringify({ ...doc, name: title, description: summary, lastUpdated: '2999-01-01' }),
      })
      .where('slug', '=', tool.slug)
      .execute();
  });

  for (const path of ['/feeds/blog.xml', '/feeds/tools.xml'])
    it(`${path} stays well-formed Atom that a strict feed parser reads, its text carried as text`, async () => {
      const res = await request(app).get(path);
      expect(XMLValidator.validate(res.text)).toBe(true);
      const read = await parseFeed(res.text);
      expect(read.type).toBe('atom');
      expect(read.items.length).toBeGreaterThan(0);
      // The newest entry, as the characters stored less those XML cannot carry, in text constructs (never markup).
      const entry = parser.parse(res.text).feed.entry[0] as Record<string, TextConstruct> & {
        category: { '@_term': string }[];
      };
      expect(entry.title['@_type']).toBe('text');
      expect(entry.title['#text'].startsWith(carried(title))).toBe(true);
      expect(entry.summary).toEqual({ '@_type': 'text', '#text': carried(summary) });
      expect(entry.category.map((c) => c['@_term'])).toEqual([carried(category)]);
      expect(res.text).not.toMatch(/<(img|p|script)\b/);
      expect(res.text).not.toContain('type="html"');
    });
});

describe('xmlChars', () => {
  it('leaves out what XML 1.0 cannot carry (NUL, C0 controls, U+FFFE, a lone surrogate) and keeps the rest', () => {
    expect(xmlChars('a\u0000b\u0001c\tD\n\r\uFFFE\uD800e \u{1F600} <&>')).toBe('abc\tD\n\re \u{1F600} <&>');
  });
});
