import { Router } from 'express';
import type { DB } from '../db/connection';
import { getToolDoc, listToolDocs } from './repository';

export function toolsRouter(db: DB): Router {
  const router = Router();
  router.get('/', (_req, res) => {
    res.json({ success: true, data: listToolDocs(db) });
  });
  router.get('/:slug', (req, res) => {
    const tool = getToolDoc(db, req.params.slug);
    if (!tool) return void res.status(404).json({ success: false, error: 'Tool not found' });
    res.json(tool);
  });
  return router;
}
