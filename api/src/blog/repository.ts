import type { DB } from '../db/connection';

export function listPublishedPosts(db: DB): Record<string, unknown>[] {
  const rows = db.prepare(`SELECT id, doc FROM blog_posts WHERE status = 'published' ORDER BY published_at DESC, id DESC`).all() as { id: number; doc: string }[];
  return rows.map((r) => ({ id: r.id, ...JSON.parse(r.doc) }));
}

export function getPublishedPost(db: DB, slug: string): Record<string, unknown> | null {
  const row = db.prepare(`SELECT id, doc FROM blog_posts WHERE slug = ? AND status = 'published'`).get(slug) as { id: number; doc: string } | undefined;
  return row ? { id: row.id, ...JSON.parse(row.doc) } : null;
}

export function upsertPost(db: DB, post: { slug: string; title: string; status: string; published_at: string | null } & Record<string, unknown>): void {
  db.prepare(
    `INSERT INTO blog_posts (slug, title, status, published_at, doc) VALUES (@slug, @title, @status, @published_at, @doc)
     ON CONFLICT(slug) DO UPDATE SET title = excluded.title, status = excluded.status, published_at = excluded.published_at, doc = excluded.doc`,
  ).run({ slug: post.slug, title: post.title, status: post.status, published_at: post.published_at, doc: JSON.stringify(post) });
}
