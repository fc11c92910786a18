import { Router } from 'express';
import { allowOnly } from '../middleware/errors';
import type { DB } from '../db/connection';
import { findTool, listToolSummaries } from './repository';
import { similarTools } from './similar';
import { getServerByToolSlug } from '../registry/repository';
import { getInspection } from '../registry/inspections';
import { checksFor } from '../checks/facts';
import { inspectionForPage } from '@aitools/contracts/inspection';
import { toToolSummary } from '@aitools/contracts/tools';
import { MAX_SEARCH_LENGTH, readToolQuery, TOOL_QUERY_PARAMS } from '@aitools/contracts/toolQuery';
import { searchToolList, searchTools } from './search';
import type { ToolDetailExtras } from '@aitools/contracts/mcp';
import { json, type ReplyCache } from '../http/cachedResponse';
import { failure, success } from '@aitools/contracts/answers';

export function toolsRouter(db: DB, reads: ReplyCache): Router {
  const router = Router();
  // ?search= : the directory's search (docs/product.md, Directory search), best first, with suggestions when nothing is found.
  router.get(
    '/',
    reads.route(['search'], async (req) => {
      const search = typeof req.query.search === 'string' ? req.query.search.slice(0, MAX_SEARCH_LENGTH) : '';
      return json(success(await searchToolList(db, search)));
    }),
  );
  // One page of the directory's query (search, category, type, sort, page, size): what the home page shows, so its
  // HTML and data stay bounded however large the catalogue grows. Unknown values read as the defaults, as on the page.
  router.get(
    '/query',
    reads.route(TOOL_QUERY_PARAMS, async (req) => {
      const q = readToolQuery(new URLSearchParams(req.url.split('?')[1] ?? ''));
      return json(success(await searchTools(db, q)));
    }),
  );
  router.get(
    '/:slug',
    reads.route([], async (req) => {
      const found = await findTool(db, req.params.slug as string);
      if (!found) return json(failure('Tool not found'), 404);
      // Hidden by an editor: gone on purpose, which the tool page answers with 410 (docs/operations.md).
      if (found.hidden) return json(failure('This tool was removed from the directory'), 410);
      const { tool } = found;
      const mcpServer = await getServerByToolSlug(db, tool.slug);
      const stored = mcpServer ? await getInspection(db, tool.slug) : null;
      // The page shows parameters only; /v0.1 carries the full input schemas.
      const mcpInspection = stored && inspectionForPage(stored);
      const mcpChecks = stored ? await checksFor(db, tool.slug, stored) : undefined;
      const extras: ToolDetailExtras = {
        ...(mcpServer ? { mcpServer } : {}),
        ...(mcpInspection ? { mcpInspection } : {}),
        ...(mcpChecks ? { mcpChecks } : {}),
        similar: similarTools(toToolSummary(tool), await listToolSummaries(db)),
      };
      // The bare record, not the success shape: docs/product.md (API calls) fixes this answer (contracts/answers.ts).
      return json({ ...tool, ...extras });
    }),
  );
  router.all(['/', '/query', '/:slug'], allowOnly('GET, HEAD'));
  return router;
}
