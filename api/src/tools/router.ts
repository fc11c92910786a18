import { createHash } from 'node:crypto';
import { Router } from 'express';
import type { DB } from '../db/connection';
import { getTool, listToolSummaries } from './repository';

/** Strong validator of a response body; clients revalidate (no-cache) and get 304 when nothing changed. */
export function etagOf(body: string): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const v = t.trim().replace(/^W\//, '');
    return v === '*' || v === etag;
  });
}

export function toolsRouter(db: DB): Router {
  const router = Router();
  router.get('/', (req, res) => {
    const body = JSON.stringify({ success: true, data: listToolSummaries(db) });
    const etag = etagOf(body);
    res.set({ ETag: etag, 'Cache-Control': 'no-cache' });
    if (matchesEtag(req.get('If-None-Match'), etag)) return void res.status(304).end();
    res.type('json').send(body);
  });
  router.get('/:slug', (req, res) => {
    const tool = getTool(db, req.params.slug);
    if (!tool) return void res.status(404).json({ success: false, error: 'Tool not found' });
    res.json(tool);
  });
  return router;
}
