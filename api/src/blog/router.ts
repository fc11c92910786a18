import { Router } from 'express';
import type { DB } from '../db/connection';
import { getPublishedPost, listPublishedPosts } from './repository';

export function blogRouter(db: DB): Router {
  const router = Router();
  router.get('/public/posts', (_req, res) => {
    res.json({ success: true, data: listPublishedPosts(db) });
  });
  router.get('/public/posts/:slug', (req, res) => {
    const post = getPublishedPost(db, req.params.slug);
    if (!post) return void res.status(404).json({ success: false, error: 'Blog post not found' });
    res.json({ success: true, data: post });
  });
  return router;
}
