import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inTransaction, type DB } from '../db/connection';
import { DATA_DIR } from '../paths';
import { insertToolIfAbsent, type ToolInput } from './repository';
import { loadLogoMap, logoUrlFor } from './logos';

/** Loads every data/tools/*.json array into the tools table: the initial seed only, inserted where no tool has (or
 *  had) the slug, never over a stored tool (docs/operations.md, Seed data). The data is kept as written, including
 *  the brace-string tags and the "AI Tools"/"MCP" categories the client must survive. */
export async function seedTools(db: DB, dir = join(DATA_DIR, 'tools')): Promise<number> {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  let count = 0;
  // Brand logos come from data/logos.json, mapped by hand per slug (see that file).
  const logos = loadLogoMap();
  await inTransaction(db, async (trx) => {
    for (const file of files) {
      const tools = JSON.parse(readFileSync(join(dir, file), 'utf8')) as ToolInput[];
      if (!Array.isArray(tools)) throw new Error(`${file}: expected an array of tools`);
      for (const tool of tools) {
        if (!tool.slug || !tool.name) throw new Error(`${file}: a tool lacks slug or name`);
        await insertToolIfAbsent(trx, { ...tool, logo: logoUrlFor(logos, tool.slug) ?? tool.logo });
        count++;
      }
    }
  });
  return count;
}
