import type { DB } from '../db/connection';
import { dateOrNull } from '@aitools/contracts/dateTime';
import { publicWrite, upsertPublic } from '../content/dataVersion';
import type { BlogPostDoc } from '@aitools/contracts/blog';
import type { PostStatus } from '@aitools/contracts/posts';

/** A post as stored: the whole front matter and body as JSON in `doc`; status and date as columns to query on
 *  (the columns decide: a `status` inside `doc` is never read). */
export interface StoredPost extends BlogPostDoc {
  slug: string;
  title: string;
  status: PostStatus;
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

/** A published post with its dates: `updated` is the later of its publication and its last edit (the feed's and
 *  the sitemap's dates, so an edit of a published post shows there). */
export interface DatedPost {
  post: BlogPostDoc;
  published: Date | null;
  updated: Date | null;
}

/** Published posts with their dates, newest first. Drafts never leave the database through here. */
export async function listPublishedPostsDated(db: DB): Promise<DatedPost[]> {
  const rows = await db
    .selectFrom('blog_posts')
    .select(['id', 'doc', 'published_at', 'updated_at'])
    .where('status', '=', 'published')
    .orderBy('published_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => {
    const published = dateOrNull(row.published_at);
    const edited = dateOrNull(row.updated_at);
    return {
      post: toPublic(row),
      published,
      updated: edited && (!published || edited > published) ? edited : published,
    };
  });
}

/** Published posts, newest first. */
export async function listPublishedPosts(db: DB): Promise<BlogPostDoc[]> {
  return (await listPublishedPostsDated(db)).map((d) => d.post);
}

export async function getPublishedPost(db: DB, slug: string): Promise<BlogPostDoc | null> {
  const row = await db
    .selectFrom('blog_posts')
    .select(['id', 'doc'])
    .where('slug', '=', slug)
    .where('status', '=', 'published')
    .executeTakeFirst();
  return row ? toPublic(row) : null;
}

const rowOf = (post: StoredPost) => ({
  slug: post.slug,
  title: post.title,
  status: post.status,
  published_at: post.published_at,
  doc: JSON.stringify(post),
});

/** Any post by slug, whatever its status: for a signed preview only (blog/preview.ts). */
export async function getPostForPreview(db: DB, slug: string): Promise<BlogPostDoc | null> {
  const row = await db.selectFrom('blog_posts').select(['id', 'doc']).where('slug', '=', slug).executeTakeFirst();
  return row ? toPublic(row) : null;
}

/** Inserts or updates a post by slug; a write that changes nothing is skipped. Returns whether a row changed. */
export function upsertPost(db: DB, post: StoredPost): Promise<boolean> {
  return upsertPublic(db, 'blog_posts', rowOf(post), { key: 'slug' });
}

/** Inserts a post unless its slug is taken (the seed: an editor's work is never written over). Returns whether it
 *  was inserted. */
export function insertPostIfAbsent(db: DB, post: StoredPost): Promise<boolean> {
  return publicWrite(db, async (trx) => {
    const r = await trx
      .insertInto('blog_posts')
      .values(rowOf(post))
      .onConflict((oc) => oc.column('slug').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  });
}
