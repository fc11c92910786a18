/**
 * The editors' posts (docs/operations.md, Editing content): every call needs the editor role, reads included, and
 * every change is a version of the post and a row of the audit trail. A save names the version it started from; a
 * stale one is refused with 409 and the newer version (content/revisions.ts).
 */
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { success } from '@aitools/contracts/answers';
import { POST_STATUSES, postFieldsSchema, type PostStatus } from '@aitools/contracts/posts';
import { newPostSlugSchema, postSlugSchema } from '@aitools/contracts/blog';
import { COVER_WIDTHS, coverWidthOf, isImageFormat } from '@aitools/contracts/images';
import { dateTimeSchema } from '@aitools/contracts/dateTime';
import type { DB } from '../db/connection';
import { changedPost, getPost, listPosts, newPost, restoredPost, storedDoc, type PostSave } from '../blog/editing';
import type { PageRenderer } from '../ssr/renderPage';
import { personActor, writeAudit } from '../content/audit';
import { saveChange } from '../content/changes';
import { readBody } from './body';
import { POST_FORM } from '@aitools/contracts/formFields';
import { versionRoutes } from './versionRoutes';
import { allow, auditEntry, personOf } from './guard';
import { ConsoleError } from './people';
import { siteAddresses } from './previewAddresses';
import type { ImageCopy } from '../images/service';

export interface PostsDeps {
  /** A signed preview link of a post, on the site's origin (blog/preview.ts); absent: 503. */
  previewLink?(slug: string): string;
  /** The site's page renderer (absent when the site renders no pages: the live preview answers 503). */
  render?: PageRenderer['renderWith'];
  /** The site's public origin, against which the live preview's addresses are resolved (console/previewAddresses.ts). */
  siteOrigin?: string;
  /** A post's cover, whatever its status (images/service.ts); absent: 503. */
  cover?(slug: string, copy: ImageCopy): Promise<Buffer | null>;
}

const slug = postSlugSchema;
const version = z.number().int().min(0);
const createBody = z
  .object({
    slug: newPostSlugSchema,
    fields: postFieldsSchema,
  })
  .strict();
const changeBody = z
  .object({
    version,
    action: z.enum(['save', 'publish', 'schedule', 'unpublish']),
    fields: postFieldsSchema.optional(),
    at: dateTimeSchema('a date and time with its offset, between the years 0000 and 9999').optional(),
  })
  .strict();
const previewBody = z
  .object({
    slug,
    fields: postFieldsSchema,
    // A seeded post's date is a day (YYYY-MM-DD); one published here, a date and time.
    published_at: z
      .union([z.iso.date(), dateTimeSchema('a date and time with its offset')], {
        error: 'a date (YYYY-MM-DD) or a date and time with its offset',
      })
      .nullable()
      .optional(),
  })
  .strict();

/** The article element of a rendered post page (the blog remote's markup), the part an editor's preview shows. */
const ARTICLE = /<article class="blog-post__article"[\s\S]*<\/article>/;

const SUMMARY: Record<string, (from: PostStatus, to: PostStatus, at: string | null) => string> = {
  save: (from) => `saved (${from})`,
  publish: (from, to) => (from === to ? 'saved (published)' : `${from} -> published`),
  schedule: (from, _to, at) => `${from} -> scheduled for ${at}`,
  unpublish: (from) => `${from} -> draft`,
};

export function postsRouter(db: DB, deps: PostsDeps = {}): Router {
  const router = Router();
  const edit = (action: string) => allow(db, 'edit', action);
  const slugOf = (params: unknown) => {
    const r = slug.safeParse((params as { slug?: unknown }).slug);
    if (!r.success) throw new ConsoleError(404, 'No such post.');
    return r.data;
  };
  /** Saves a post through the shared write path: its version, its row and its audit row in one transaction. */
  const save = (
    req: Request,
    res: Response,
    action: string,
    post: PostSave,
    summary: (version: number) => string,
  ): Promise<number> =>
    saveChange(db, { ...post, audit: (version) => auditEntry(req, res, action, `post ${post.key}`, summary(version)) });

  router.get('/posts', edit('post.read'), async (req, res) => {
    const status = typeof req.query.status === 'string' && req.query.status ? req.query.status : undefined;
    if (status && !POST_STATUSES.includes(status as PostStatus))
      throw new ConsoleError(400, `status is one of ${POST_STATUSES.join(', ')}.`);
    const search = typeof req.query.search === 'string' ? req.query.search.slice(0, 200) : undefined;
    res.json(success({ posts: await listPosts(db, { search, status: status as PostStatus | undefined }) }));
  });

  router.post('/posts', edit('post.create'), async (req, res) => {
    const body = readBody(createBody, req.body, POST_FORM);
    const post = await newPost(db, body.slug, body.fields, personActor(personOf(res)));
    const v = await save(req, res, 'post.create', post, () => `new draft "${body.fields.title}"`);
    res.status(201).json(success({ post: await getPost(db, body.slug), version: v }));
  });

  // The live preview: the article as the blog remote's own code renders it at /blog/<slug>, from unsaved fields.
  router.post('/posts/preview', edit('post.preview'), async (req, res) => {
    const body = readBody(previewBody, req.body, POST_FORM);
    if (!deps.render) throw new ConsoleError(503, 'This server renders no pages, so it cannot draw a preview.');
    const doc = storedDoc(body.slug, {
      ...body.fields,
      status: 'draft',
      // As it will read once published now.
      published_at: body.published_at ?? new Date().toISOString(),
    });
    const page = await deps.render(`/blog/${body.slug}`, {
      [`/api/blog/public/posts/${encodeURIComponent(body.slug)}`]: success({ data: doc }),
    });
    const article = ARTICLE.exec(page.html)?.[0];
    if (!article) throw new ConsoleError(503, 'The blog could not draw this post just now; try again.');
    res.json(success({ html: deps.siteOrigin ? siteAddresses(article, deps.siteOrigin, body.slug) : article }));
  });

  router.get('/posts/:slug', edit('post.read'), async (req, res) => {
    const post = await getPost(db, slugOf(req.params));
    if (!post) throw new ConsoleError(404, 'No such post.');
    res.json(success({ post }));
  });

  router.post('/posts/:slug', edit('post.edit'), async (req, res) => {
    const key = slugOf(req.params);
    const body = readBody(changeBody, req.body, POST_FORM);
    const post = await changedPost(
      db,
      key,
      {
        base: body.version,
        action: body.action,
        fields: body.fields,
        ...(body.at ? { at: new Date(body.at) } : {}),
      },
      personActor(personOf(res)),
    );
    if (!post) throw new ConsoleError(404, 'No such post.');
    const { before, next } = post;
    await save(req, res, `post.${body.action}`, post, (version) => {
      const change = SUMMARY[body.action]!(before!.status, next.status, next.published_at);
      return `${change}, version ${version}`;
    });
    res.json(success({ post: await getPost(db, key) }));
  });

  // The live preview's cover of a post the site may not show yet (console/previewAddresses.ts): never stored.
  router.get('/posts/:slug/cover.:format', edit('post.read'), async (req, res) => {
    const key = slugOf(req.params);
    const format = String(req.params.format);
    if (!isImageFormat(format)) throw new ConsoleError(404, 'A cover is a .png or a .webp.');
    const width = coverWidthOf(req.query.w);
    if (width === null)
      throw new ConsoleError(400, `w is one of ${COVER_WIDTHS.join(', ')}, or none for the full width.`);
    if (!deps.cover) throw new ConsoleError(503, 'This server draws no covers.');
    const bytes = await deps.cover(key, { width, format });
    if (!bytes) throw new ConsoleError(404, 'No such post.');
    res.type(format).send(bytes);
  });

  versionRoutes(router, '/posts', {
    db,
    kind: 'post',
    noun: 'post',
    read: edit('post.read'),
    restore: edit('post.restore'),
    async find(req) {
      const key = slugOf(req.params);
      if (!(await getPost(db, key))) throw new ConsoleError(404, 'No such post.');
      return key;
    },
    keyOf: (key) => key,
    async restoreVersion(req, res, key, old, base) {
      const post = await restoredPost(db, key, old, base, personActor(personOf(res)));
      if (!post) throw new ConsoleError(404, 'No such post.');
      await save(req, res, 'post.restore', post, (version) => `version ${old.version} restored as ${version}`);
      res.json(success({ post: await getPost(db, key) }));
    },
  });

  router.post('/posts/:slug/preview-link', edit('post.preview-link'), async (req, res) => {
    const key = slugOf(req.params);
    const post = await getPost(db, key);
    if (!post) throw new ConsoleError(404, 'No such post.');
    if (!deps.previewLink) throw new ConsoleError(503, 'This server makes no preview links.');
    await writeAudit(
      db,
      auditEntry(req, res, 'post.preview-link', `post ${key}`, `preview link made (${post.status})`),
    );
    res.json(success({ url: deps.previewLink(key) }));
  });

  return router;
}
