import type { DB } from '../db/connection';
import { publicWrite } from '../db/dataVersion';
import type { BlogPostDoc } from '../contracts/blog';

/** A post as stored: the whole front matter and body as JSON in `doc`; status and date as columns to query on. */
export interface StoredPost extends BlogPostDoc {
  slug: string;
  title: string;
  status: 'published' | 'draft';
  published_at: string | null;
}

interface Row {
  id: number;
  doc: string;
}

/** Public view of a row: the id from the table, without the internal status. */
function toPublic(row: Row): BlogPostDoc {
  const { status: _status, ...doc } = JSON.parse(row.doc) as StoredPost;
  return { id: row.id, ...doc };
}

/** Published posts, newest first. Drafts never leave the database through here. */
export function listPublishedPosts(db: DB): BlogPostDoc[] {
  const rows = db.prepare(`SELECT id, doc FROM blog_posts WHERE status = 'published' ORDER BY published_at DESC, id DESC`).all() as Row[];
  return rows.map(toPublic);
}

export function getPublishedPost(db: DB, slug: string): BlogPostDoc | null {
  const row = db.prepare(`SELECT id, doc FROM blog_posts WHERE slug = ? AND status = 'published'`).get(slug) as Row | undefined;
  return row ? toPublic(row) : null;
}

/** Inserts or updates a post by slug; a write that changes nothing is skipped. Returns whether a row changed. */
export function upsertPost(db: DB, post: StoredPost): boolean {
  const write = db.prepare(
    `INSERT INTO blog_posts (slug, title, status, published_at, doc) VALUES (@slug, @title, @status, @published_at, @doc)
     ON CONFLICT(slug) DO UPDATE SET title = excluded.title, status = excluded.status, published_at = excluded.published_at, doc = excluded.doc
     WHERE blog_posts.doc <> excluded.doc`,
  );
  return publicWrite(db, () => write.run({ slug: post.slug, title: post.title, status: post.status, published_at: post.published_at, doc: JSON.stringify(post) }).changes > 0);
}
