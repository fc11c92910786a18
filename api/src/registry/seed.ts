import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DB } from '../db/connection';
import { DATA_DIR } from '../paths';
import { mcpSeedRecordSchema, type ServerJson } from '../contracts/mcp';
import { issueLines } from '../contracts/zod';
import { upsertServer } from './repository';

/** Loads data/mcp-servers.json (tool slug -> server.json record) after the tools: every record must be valid and
 *  belong to a seeded tool, or the seed step fails loudly. Imported records are left as the import wrote them. */
export function seedMcpServers(db: DB, file = join(DATA_DIR, 'mcp-servers.json')): number {
  const records = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const toolDay = db.prepare(`SELECT json_extract(doc, '$.lastUpdated') AS day FROM tools WHERE slug = ?`);
  let count = 0;
  db.transaction(() => {
    for (const [slug, raw] of Object.entries(records)) {
      const parsed = mcpSeedRecordSchema.safeParse(raw);
      if (!parsed.success) throw new Error(`mcp-servers.json ${slug}: ${issueLines(parsed.error).join('; ')}`);
      const tool = toolDay.get(slug) as { day: string | null } | undefined;
      if (!tool) throw new Error(`mcp-servers.json ${slug}: no seeded tool has this slug`);
      // A seeded record dates from its tool's last update, so feeds and updated_since stay stable across restarts.
      const updatedAt = tool.day && !Number.isNaN(Date.parse(tool.day)) ? new Date(tool.day).toISOString() : undefined;
      upsertServer(db, { doc: parsed.data as ServerJson, toolSlug: slug, source: 'seed', updatedAt });
      count++;
    }
  })();
  return count;
}
