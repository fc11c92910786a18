import { Router } from 'express';
import { allowOnly, HttpError } from '../middleware/errors';
import type { DB } from '../db/connection';
import { BLOG_POST_NOT_FOUND, type BlogPostListResponse, type BlogPostResponse } from '@aitools/contracts/blog';
import { getPostForPreview, getPublishedPost, listPublishedPosts } from './repository';
import { POST_PREVIEW_HEADER, type PostPreviews } from './preview';
import { json, type ReplyCache } from '../http/cachedResponse';
import { failure, success } from '@aitools/contracts/answers';

const SLUG = /^[a-z0-9-]{1,200}$/;

/** Public, read-only blog API (docs/product.md, API calls). Only published posts are visible, but for one post to
 *  a request that carries its signed preview (blog/preview.ts: the page renderer's header, or the previewing
 *  browser's own cookie), answered uncached and marked noindex. */
export function blogRouter(db: DB, reads: ReplyCache, previews?: PostPreviews): Router {
  const router = Router();
  router.get('/public/posts/:slug', async (req, res, next) => {
    const slug = req.params.slug as string;
    const previewed = previews && (previews.fromToken(req.get(POST_PREVIEW_HEADER)) === slug || previews.of(req, slug));
    if (!previewed) return next();
    const post = await getPostForPreview(db, slug);
    res.set({ 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex, nofollow' });
    if (!post) return void res.status(404).json(failure(BLOG_POST_NOT_FOUND));
    const body: BlogPostResponse = success({ data: post });
    res.json(body);
  });
  router.get(
    '/public/posts',
    reads.route([], async () => {
      const body: BlogPostListResponse = success({ data: await listPublishedPosts(db) });
      return json(body);
    }),
  );
  router.get(
    '/public/posts/:slug',
    reads.route([], async (req) => {
      const slug = req.params.slug as string;
      const post = SLUG.test(slug) ? await getPublishedPost(db, slug) : null;
      // Never stored: the front lane would send a stored 404 again to a browser holding a preview of this post
      // before its cookie is read (app.ts), even for a draft created after the 404 was stored (no data version bump).
      if (!post) throw new HttpError(404, BLOG_POST_NOT_FOUND);
      const body: BlogPostResponse = success({ data: post });
      return json(body);
    }),
  );
  router.all(['/public/posts', '/public/posts/:slug'], allowOnly('GET, HEAD'));
  return router;
}
