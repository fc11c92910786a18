import { Router } from 'express';
import type { DB } from '../db/connection';
import { BLOG_POST_NOT_FOUND, type BlogPostListResponse, type BlogPostResponse } from '../contracts/blog';
import { getPublishedPost, listPublishedPosts } from './repository';

const SLUG = /^[a-z0-9-]{1,200}$/;

/** Public, read-only blog API (SPEC section 7). Only published posts are visible. */
export function blogRouter(db: DB): Router {
  const router = Router();
  router.get('/public/posts', (_req, res) => {
    const body: BlogPostListResponse = { success: true, data: listPublishedPosts(db) };
    res.set('Cache-Control', 'no-cache').json(body);
  });
  router.get('/public/posts/:slug', (req, res) => {
    const slug = req.params.slug;
    const post = SLUG.test(slug) ? getPublishedPost(db, slug) : null;
    if (!post) return void res.status(404).json({ success: false, error: BLOG_POST_NOT_FOUND });
    const body: BlogPostResponse = { success: true, data: post };
    res.set('Cache-Control', 'no-cache').json(body);
  });
  return router;
}
