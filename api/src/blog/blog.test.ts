import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../app';
import { loadConfig } from '../config';
import type { DB } from '../db/connection';
import { openTestDatabase } from '../../test/testDatabase';
import { createLogger } from '../middleware/logger';
import { DATA_DIR } from '../paths';
import { seedBlog } from './seed';
import { upsertPost } from './repository';
import { publishDuePosts } from './scheduler';
import { dataVersion } from '../content/dataVersion';
import { listAudit } from '../content/audit';

const BLOG_DIR = join(DATA_DIR, 'blog');

async function appWith(db: DB): Promise<Express> {
  return createApp({
    config: loadConfig({ ...process.env, NODE_ENV: 'test' }),
    db,
    logger: createLogger('silent'),
    pages: false,
  });
}

describe('blog API over the real articles', () => {
  let db: DB;
  let app: Express;
  beforeAll(async () => {
    db = await openTestDatabase();
    await seedBlog(db);
    app = await appWith(db);
  });

  it('lists published posts only, newest first, under data', async () => {
    const res = await request(app).get('/api/blog/public/posts');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const slugs: string[] = res.body.data.map((p: { slug: string }) => p.slug);
    const files = readdirSync(BLOG_DIR).filter((f) => f.endsWith('.md'));
    expect(slugs).toHaveLength(files.length - 1);
    expect(slugs.length).toBeGreaterThanOrEqual(15);
    expect(slugs).not.toContain('real-world-ai-examples-everyday-life');
    expect(slugs).toContain('how-ai-all-started-history-artificial-intelligence');
    const dates = res.body.data.map((p: { published_at: string }) => p.published_at);
    expect([...dates].sort().reverse()).toEqual(dates);
    for (const p of res.body.data) {
      expect(p).not.toHaveProperty('status');
      expect(typeof p.id).toBe('number');
      expect(p.content.length).toBeGreaterThan(2000);
      expect(p.excerpt && p.category && p.author && p.tags.length).toBeTruthy();
    }
  });

  it('returns one post by slug with its whole body', async () => {
    const res = await request(app).get('/api/blog/public/posts/how-ai-all-started-history-artificial-intelligence');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      slug: 'how-ai-all-started-history-artificial-intelligence',
      category: 'AI History',
      featured: true,
      read_time: '8 min read',
      tags: ['AI', 'History', 'Technology', 'Innovation'],
    });
    expect(res.body.data.content).toMatch(/^Every tool in our \[AI tools directory\]\(\/\)/);
  });

  it('answers 404 JSON for a missing slug, a draft and a malformed slug', async () => {
    for (const slug of ['no-such-post', 'real-world-ai-examples-everyday-life', 'UPPER%20case', 'x'.repeat(201)]) {
      const res = await request(app).get(`/api/blog/public/posts/${slug}`);
      expect(res.status, slug).toBe(404);
      expect(res.body).toEqual({ success: false, error: 'Blog post not found' });
    }
  });

  it('hides a post again when it is turned into a draft', async () => {
    const own = await openTestDatabase();
    await upsertPost(own, {
      slug: 'a-post',
      title: 'A post',
      status: 'published',
      published_at: '2026-01-01',
      content: 'Hello',
    });
    const ownApp = await appWith(own);
    expect((await request(ownApp).get('/api/blog/public/posts')).body.data).toHaveLength(1);
    await upsertPost(own, {
      slug: 'a-post',
      title: 'A post',
      status: 'draft',
      published_at: '2026-01-01',
      content: 'Hello',
    });
    expect((await request(ownApp).get('/api/blog/public/posts')).body.data).toEqual([]);
    expect((await request(ownApp).get('/api/blog/public/posts/a-post')).status).toBe(404);
  });
});

describe('the article files', () => {
  const published = new Set<string>();
  const bodies: [string, string][] = [];
  beforeAll(async () => {
    const db = await openTestDatabase();
    await seedBlog(db);
    for (const row of await db.selectFrom('blog_posts').select(['slug', 'status', 'doc']).execute()) {
      if (row.status === 'published') published.add(row.slug);
      bodies.push([row.slug, JSON.parse(row.doc).content]);
    }
  });

  it('link only to published posts (a draft or a typo would be a dead link)', () => {
    for (const [slug, body] of bodies) {
      for (const m of body.matchAll(/(?:\]\(|href=")\/blog\/([^)"#?]+)/g))
        expect(published.has(m[1]), `${slug} links to /blog/${m[1]}`).toBe(true);
    }
  });

  it('use the whole markdown subset across the collection', () => {
    const all = bodies.map(([, b]) => b).join('\n\n');
    for (const re of [
      /^```/m,
      /^## /m,
      /^### /m,
      /^#### /m,
      /^- /m,
      /^\d+\. /m,
      /<a href="https:/,
      /\]\(\/[a-z]/,
      /\*\*\[[^\]]+\]\([^)]+\)\*\*/,
      /\*\*[^*[]+\*\*/,
      /<strong>/,
    ]) {
      expect(all, String(re)).toMatch(re);
    }
  });
});

describe('seed validation', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'blog-seed-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('rejects a file with missing front matter fields, naming the file', async () => {
    writeFileSync(join(dir, 'broken.md'), '---\ntitle: "Broken"\nslug: "broken"\n---\nBody');
    await expect(seedBlog(await openTestDatabase(), dir)).rejects.toThrow(
      /Invalid front matter in broken\.md: .*excerpt/,
    );
    rmSync(join(dir, 'broken.md'));
  });

  it('rejects front matter or markdown with a character the field rules refuse, naming the file and the field', async () => {
    const good = readFileSync(join(BLOG_DIR, 'what-is-model-context-protocol-mcp.md'), 'utf8');
    const name = 'what-is-model-context-protocol-mcp.md';
    writeFileSync(join(dir, name), good.replace(/^title: "/m, 'title: "\u202e'));
    await expect(seedBlog(await openTestDatabase(), dir)).rejects.toThrow(
      /Invalid front matter in what-is-model-context-protocol-mcp\.md: title: Title contains a text-direction control/,
    );
    writeFileSync(join(dir, name), `${good}\nA bell\u0007 in the text.\n`);
    await expect(seedBlog(await openTestDatabase(), dir)).rejects.toThrow(
      /Invalid markdown in what-is-model-context-protocol-mcp\.md: .*control character \(U\+0007\)/,
    );
    rmSync(join(dir, name));
  });

  it('rejects a slug that differs from the file name, and accepts an unquoted YAML date', async () => {
    const front = readFileSync(join(BLOG_DIR, 'what-is-model-context-protocol-mcp.md'), 'utf8').replace(
      'published_at: "2026-04-08"',
      'published_at: 2026-04-08',
    );
    writeFileSync(join(dir, 'other-name.md'), front);
    await expect(seedBlog(await openTestDatabase(), dir)).rejects.toThrow(
      /does not match the file name other-name\.md/,
    );
    rmSync(join(dir, 'other-name.md'));
    writeFileSync(join(dir, 'what-is-model-context-protocol-mcp.md'), front);
    const db = await openTestDatabase();
    expect(await seedBlog(db, dir)).toBe(1);
    expect((await db.selectFrom('blog_posts').select('published_at').executeTakeFirstOrThrow()).published_at).toBe(
      '2026-04-08',
    );
  });
});

describe('the seed is the initial data only', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'blog-seed-only-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (slug: string, title: string) =>
    `---\ntitle: "${title}"\nslug: "${slug}"\nexcerpt: "E"\ncategory: "C"\ntags: ["T"]\nauthor: "A"\npublished_at: "2026-01-01"\n---\nBody of ${title}`;

  it('inserts the posts it lacks, never writes over one the database holds (even from a newer file), and bumps only on an insert', async () => {
    const db = await openTestDatabase();
    writeFileSync(join(dir, 'kept.md'), file('kept', 'As seeded'));
    await seedBlog(db, dir);
    // An editor's change, then a restart with a newer file for the same slug and a new file.
    await db
      .updateTable('blog_posts')
      .set({ title: 'Edited', doc: JSON.stringify({ slug: 'kept', title: 'Edited', content: 'edited' }) })
      .execute();
    writeFileSync(join(dir, 'kept.md'), file('kept', 'Newer file'));
    const before = Number(await dataVersion(db));
    await seedBlog(db, dir);
    expect(Number(await dataVersion(db))).toBe(before);
    writeFileSync(join(dir, 'added.md'), file('added', 'Added later'));
    await seedBlog(db, dir);
    expect(Number(await dataVersion(db))).toBe(before + 1);
    const rows = await db.selectFrom('blog_posts').select(['slug', 'title']).orderBy('slug').execute();
    expect(rows).toEqual([
      { slug: 'added', title: 'Added later' },
      { slug: 'kept', title: 'Edited' },
    ]);
  });
});

describe('the scheduler', () => {
  it('publishes due posts once, bumping the data version only when it changed a row, and audits each', async () => {
    const db = await openTestDatabase();
    const post = (slug: string, at: string) =>
      upsertPost(db, { slug, title: slug, status: 'scheduled', published_at: at, content: 'x' });
    await post('due', '2026-03-01T10:00:00.000Z');
    await post('later', '2026-03-01T10:05:00.000Z');
    const v0 = Number(await dataVersion(db));
    const now = new Date('2026-03-01T10:01:00.000Z');
    // Two instances at once: one publishes, the other finds nothing.
    const runs = await Promise.all([
      publishDuePosts(db, 'job:publish-posts', now),
      publishDuePosts(db, 'job:publish-posts', now),
    ]);
    expect(runs.flat()).toEqual(['due']);
    expect(Number(await dataVersion(db))).toBe(v0 + 1);
    expect(await publishDuePosts(db, 'job:publish-posts', now)).toEqual([]);
    expect(Number(await dataVersion(db))).toBe(v0 + 1);
    const app = await appWith(db);
    expect((await request(app).get('/api/blog/public/posts')).body.data.map((p: { slug: string }) => p.slug)).toEqual([
      'due',
    ]);
    const audit = (await listAudit(db, { action: 'post.publish' })).entries;
    expect(audit.map((e) => [e.actor, e.target])).toEqual([['job:publish-posts', 'post due']]);
  });
});
