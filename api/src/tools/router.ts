import { createHash } from 'node:crypto';
import { Router } from 'express';
import type { DB } from '../db/connection';
import { getTool, listToolSummaries } from './repository';
import { searchToolSummaries, searchTools } from './search';
import { similarTools } from './similar';
import { getServerByToolSlug } from '../registry/repository';
import { toToolSummary } from '../contracts/tools';
import { queryTools, readToolQuery } from '../contracts/toolQuery';
import type { ToolDetailExtras } from '../contracts/mcp';

/** Strong validator of a response body; clients revalidate (no-cache) and get 304 when nothing changed. */
function etagOf(body: string): string {
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
    // ?search= : the spec's contains-search through the full-text index, with suggestions when nothing matches.
    const search = typeof req.query.search === 'string' ? req.query.search.slice(0, 200) : '';
    const body = JSON.stringify(search.trim() ? { success: true, ...searchTools(db, search) } : { success: true, data: listToolSummaries(db) });
    const etag = etagOf(body);
    res.set({ ETag: etag, 'Cache-Control': 'no-cache' });
    if (matchesEtag(req.get('If-None-Match'), etag)) return void res.status(304).end();
    res.type('json').send(body);
  });
  // One page of the directory's query (search, category, type, sort, page, size): what the home page shows, so its
  // HTML and data stay bounded however large the catalogue grows. Unknown values read as the defaults, as on the page.
  router.get('/query', (req, res) => {
    const q = readToolQuery(new URLSearchParams(req.url.split('?')[1] ?? ''));
    const catalogue = listToolSummaries(db);
    const body = JSON.stringify({ success: true, ...queryTools(catalogue, q, q.search.trim() ? searchToolSummaries(db, q.search) : undefined) });
    const etag = etagOf(body);
    res.set({ ETag: etag, 'Cache-Control': 'no-cache' });
    if (matchesEtag(req.get('If-None-Match'), etag)) return void res.status(304).end();
    res.type('json').send(body);
  });
  router.get('/:slug', (req, res) => {
    const tool = getTool(db, req.params.slug);
    if (!tool) return void res.status(404).json({ success: false, error: 'Tool not found' });
    const mcpServer = getServerByToolSlug(db, tool.slug);
    const extras: ToolDetailExtras = { ...(mcpServer ? { mcpServer } : {}), similar: similarTools(toToolSummary(tool), listToolSummaries(db)) };
    res.json({ ...tool, ...extras });
  });
  return router;
}
