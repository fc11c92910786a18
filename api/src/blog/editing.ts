/**
 * Posts as editors change them in the console (docs/operations.md, Editing content): a list, one post, a save (with
 * a change of status: publish now, schedule, unpublish) and a restore. Each is prepared here and saved by the caller
 * through the shared write path (content/changes.ts), with its version, its audit row and, when the public sees it
 * (a post published before or after it), the data version, so every cache and instance serves it from the next
 * request.
 */
import { containsText, type DB } from '../db/connection';
import { POST_FORM, reasonsText } from '@aitools/contracts/formFields';
import {
  publishableSchema,
  type EditablePost,
  type PostFields,
  type PostStatus,
  type PostSummary,
} from '@aitools/contracts/posts';
import { HttpError } from '../middleware/errors';
import { latestVersion } from '../content/revisions';
import type { EditedChange } from '../content/changes';
import type { Revision } from '@aitools/contracts/editing';
import type { StoredPost } from './repository';

/** A version of a post: its fields, status and publication time. */
export interface PostRecord extends PostFields {
  status: PostStatus;
  published_at: string | null;
}

interface Row {
  slug: string;
  title: string;
  status: PostStatus;
  published_at: string | null;
  updated_at: string | null;
  doc: string;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** The editable fields of a stored document (a seed file's, or a save's). */
function fieldsOf(doc: Partial<StoredPost>): PostFields {
  return {
    title: str(doc.title),
    excerpt: str(doc.excerpt),
    category: str(doc.category),
    tags: Array.isArray(doc.tags) ? doc.tags.filter((t): t is string => typeof t === 'string') : [],
    author: str(doc.author),
    featured: doc.featured === true,
    read_time: str(doc.read_time),
    featured_image: str(doc.featured_image),
    featured_image_alt: str(doc.featured_image_alt),
    content: str(doc.content),
  };
}

const recordOf = (row: Row): PostRecord => ({
  ...fieldsOf(JSON.parse(row.doc) as Partial<StoredPost>),
  status: row.status,
  published_at: row.published_at,
});

/** The document the public API serves: empty optional fields left out, as a seed file leaves them out. */
export function storedDoc(slug: string, record: PostRecord): StoredPost {
  const { status, read_time, featured_image, featured_image_alt, ...rest } = record;
  return {
    slug,
    ...rest,
    ...(read_time ? { read_time } : {}),
    ...(featured_image ? { featured_image } : {}),
    ...(featured_image_alt ? { featured_image_alt } : {}),
    status,
  };
}

const COLUMNS = ['slug', 'title', 'status', 'published_at', 'updated_at', 'doc'] as const;

async function readRow(db: DB, slug: string): Promise<Row | undefined> {
  return db.selectFrom('blog_posts').select(COLUMNS).where('slug', '=', slug).executeTakeFirst();
}

/** Every post, drafts and scheduled ones too, most recently changed first; `search` matches the title or slug. */
export async function listPosts(db: DB, filter: { search?: string; status?: PostStatus } = {}): Promise<PostSummary[]> {
  let q = db.selectFrom('blog_posts').select(COLUMNS);
  if (filter.status) q = q.where('status', '=', filter.status);
  if (filter.search)
    q = q.where((eb) => eb.or([containsText('title', filter.search!), containsText('slug', filter.search!)]));
  const rows = await q.execute();
  const versions = new Map(
    (
      await db
        .selectFrom('content_revisions')
        .select(['key', (eb) => eb.fn.max('version').as('version')])
        .where('kind', '=', 'post')
        .groupBy('key')
        .execute()
    ).map((r) => [r.key, Number(r.version)]),
  );
  const changed = (r: Row) => r.updated_at ?? r.published_at ?? '';
  return rows
    .sort((a, b) => changed(b).localeCompare(changed(a)) || a.slug.localeCompare(b.slug))
    .map((r) => ({
      slug: r.slug,
      title: r.title,
      status: r.status,
      author: str((JSON.parse(r.doc) as Partial<StoredPost>).author),
      published_at: r.published_at,
      updated_at: r.updated_at,
      version: versions.get(r.slug) ?? 0,
    }));
}

export async function getPost(db: DB, slug: string): Promise<EditablePost | null> {
  const row = await readRow(db, slug);
  if (!row) return null;
  return { slug, ...recordOf(row), updated_at: row.updated_at, version: await latestVersion(db, 'post', slug) };
}

/** Published, or to be: the fields a reader will see meet the seed's rules (400 naming each field otherwise). */
function checkPublishable(record: PostRecord): void {
  if (record.status === 'draft') return;
  const r = publishableSchema.safeParse(record);
  if (r.success) return;
  const fieldErrors: Record<string, string> = {};
  for (const issue of r.error.issues) fieldErrors[issue.path.join('.')] ??= issue.message;
  throw new HttpError(400, `Not publishable yet: ${reasonsText(POST_FORM, fieldErrors)}`, fieldErrors);
}

/** A save of a post as the write path takes it (content/changes.ts: the caller adds its audit row): its version and
 *  the post's row, with what was stored before and what will be. */
export interface PostSave extends Omit<EditedChange<PostRecord>, 'audit'> {
  before: PostRecord | null;
  next: PostRecord;
}

/** The save of `next` over `before` from version `base`; refused here (400) when it would publish what is not
 *  publishable. A change to what the public sees is a post published before or after it. */
function postSave(slug: string, base: number, before: PostRecord | null, next: PostRecord, author: string): PostSave {
  checkPublishable(next);
  return {
    kind: 'post',
    key: slug,
    base,
    body: next,
    author,
    ...(before ? { previous: before } : {}),
    before,
    next,
    async apply(trx) {
      const row = {
        title: next.title,
        status: next.status,
        published_at: next.published_at,
        doc: JSON.stringify(storedDoc(slug, next)),
        updated_at: new Date().toISOString(),
      };
      if (before) await trx.updateTable('blog_posts').set(row).where('slug', '=', slug).execute();
      else
        await trx
          .insertInto('blog_posts')
          .values({ slug, ...row })
          .execute();
      return before?.status === 'published' || next.status === 'published';
    },
  };
}

/** A new draft (409 when the slug is taken). */
export async function newPost(db: DB, slug: string, fields: PostFields, author: string): Promise<PostSave> {
  if (await readRow(db, slug)) throw new HttpError(409, `A post with the address /blog/${slug} exists already.`);
  return postSave(slug, 0, null, { ...fields, status: 'draft', published_at: null }, author);
}

export type PostAction = 'save' | 'publish' | 'schedule' | 'unpublish';

export interface PostChange {
  base: number;
  action: PostAction;
  /** New fields, or the stored ones. */
  fields?: PostFields;
  /** For 'schedule': when (a time to come). */
  at?: Date;
}

/** A save and/or a change of status of a stored post; null for no such post. */
export async function changedPost(
  db: DB,
  slug: string,
  change: PostChange,
  author: string,
  now = new Date(),
): Promise<PostSave | null> {
  const row = await readRow(db, slug);
  if (!row) return null;
  const before = recordOf(row);
  const next: PostRecord = { ...before, ...change.fields };
  if (change.action === 'publish' && before.status !== 'published') {
    next.status = 'published';
    next.published_at = now.toISOString();
  } else if (change.action === 'schedule') {
    if (!change.at || change.at.getTime() <= now.getTime())
      throw new HttpError(400, 'A post is scheduled for a time to come.', { at: 'a time to come' });
    next.status = 'scheduled';
    next.published_at = change.at.toISOString();
  } else if (change.action === 'unpublish') next.status = 'draft';
  return postSave(slug, change.base, before, next, author);
}

/** An older version's fields brought back as the newest version; the status and publication time stay as they
 *  are. Null for no such post. */
export async function restoredPost(
  db: DB,
  slug: string,
  old: Pick<Revision, 'body'>,
  base: number,
  author: string,
): Promise<PostSave | null> {
  const row = await readRow(db, slug);
  if (!row) return null;
  const before = recordOf(row);
  const next: PostRecord = {
    ...fieldsOf(old.body as Partial<StoredPost>),
    status: before.status,
    published_at: before.published_at,
  };
  return postSave(slug, base, before, next, author);
}
