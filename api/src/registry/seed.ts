import { readFileSync } from 'node:fs';
import { dateOrNull } from '@aitools/contracts/dateTime';
import { join } from 'node:path';
import { inTransaction, jsonText, type DB } from '../db/connection';
import { DATA_DIR } from '../paths';
import { mcpSeedRecordSchema, type ServerJson } from '@aitools/contracts/mcp';
import { issueLines } from '@aitools/contracts/zod';
import { upsertServer } from './repository';
import { publicWrite } from '../content/dataVersion';
import { currentSlug, editedToolSlugs } from '../content/toolSlugs';

/** Loads data/mcp-servers.json (tool slug -> server.json record) after the tools: every record must be valid and
 *  belong to a seeded tool, or the seed step fails loudly. Imported records, and the tools an editor changed (their
 *  record, or its absence), are left as they are. */
export async function seedMcpServers(db: DB, file = join(DATA_DIR, 'mcp-servers.json')): Promise<number> {
  const records = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  let count = 0;
  await inTransaction(db, async (trx) => {
    const edited = await editedToolSlugs(trx);
    for (const [seedSlug, raw] of Object.entries(records)) {
      // The file names tools by the slug they were seeded with; an editor may have changed it since.
      const slug = await currentSlug(trx, seedSlug);
      const parsed = mcpSeedRecordSchema.safeParse(raw);
      if (!parsed.success) throw new Error(`mcp-servers.json ${slug}: ${issueLines(parsed.error).join('; ')}`);
      const tool = await trx
        .selectFrom('tools')
        .select(jsonText(trx, 'doc', 'lastUpdated').as('day'))
        .where('slug', '=', slug)
        .executeTakeFirst();
      if (!tool) throw new Error(`mcp-servers.json ${slug}: no seeded tool has this slug`);
      // A seeded record dates from its tool's last update, so feeds and updated_since stay stable across restarts.
      const updatedAt = dateOrNull(tool.day)?.toISOString();
      // An imported record for this tool wins, under whatever name (upsertServer keeps it too).
      count++;
      // A tool an editor changed keeps its record as they left it, or its absence (editedToolSlugs).
      if (edited.has(slug)) continue;
      const held = await trx
        .selectFrom('mcp_servers')
        .select('source')
        .where('tool_slug', '=', slug)
        .executeTakeFirst();
      if (held?.source === 'import') continue;
      // A record renamed in the file (to its package's mcpName) replaces the seeded row under its old name.
      await publicWrite(
        trx,
        async (w) =>
          Number(
            (
              await w
                .deleteFrom('mcp_servers')
                .where('tool_slug', '=', slug)
                .where('name', '<>', parsed.data.name)
                .where('source', '=', 'seed')
                .executeTakeFirst()
            ).numDeletedRows,
          ) > 0,
      );
      await upsertServer(trx, { doc: parsed.data as ServerJson, toolSlug: slug, source: 'seed', updatedAt });
    }
  });
  return count;
}
