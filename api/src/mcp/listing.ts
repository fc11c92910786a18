/**
 * The directory lists its own MCP server (docs/mcp.md, The site's own MCP server): the seed data holds its tool and
 * its server.json record at the production address; at start the record is pointed at this instance's own origin
 * (SITE_ORIGIN), so its page's install snippets and its /v0.1 entry name the /mcp that answers them.
 */
import type { ServerJson } from '@aitools/contracts/mcp';
import type { DB } from '../db/connection';
import { getServerRow, upsertServer } from '../registry/repository';

/** Where the site answers MCP (router.ts). */
export const MCP_PATH = '/mcp';
export const SITE_SERVER_SLUG = 'ai-tools-directory-mcp-server';
export const SITE_SERVER_NAME = 'io.aitoolsdirectory/directory';

/** The record with its remote and website on `siteOrigin`. A record an operator imported is left as it is. */
export async function listSelf(db: DB, siteOrigin: string): Promise<boolean> {
  const row = await getServerRow(db, SITE_SERVER_NAME);
  if (!row || row.source !== 'seed' || row.tool_slug !== SITE_SERVER_SLUG) return false;
  const url = new URL(MCP_PATH, siteOrigin).href;
  const doc = JSON.parse(row.doc) as ServerJson;
  const pointed: ServerJson = {
    ...doc,
    websiteUrl: url,
    remotes: (doc.remotes ?? []).map((r) => ({ ...r, url })),
  };
  return upsertServer(db, { doc: pointed, toolSlug: SITE_SERVER_SLUG, source: 'seed', updatedAt: row.updated_at });
}
