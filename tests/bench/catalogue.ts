/**
 * A database holding the real seed plus enough synthetic tools (api/test/generatedCatalogue.ts) to reach `total`
 * tools, for the benchmark and the large-catalogue e2e only. The site then starts on that database; its own seed step
 * upserts the real tools by slug, which are already there.
 */
import { inTransaction, openDatabase, type DB } from '../../api/src/db/connection';
import { countRows } from '../../api/test/testDatabase';
import { codeGeneratedTools, generateTools, type CatalogueShape } from '../../api/test/generatedCatalogue';
import { seed } from '../../api/src/seed';
import { listToolSummaries, upsertTool } from '../../api/src/tools/repository';

export { generateTools, SYNTHETIC_SLUG_PREFIX, type CatalogueShape } from '../../api/test/generatedCatalogue';

/** Creates (migrated and seeded) the database at `path` with `total` tools in all, of `shape` (default the hard
 *  case); returns it open. */
export async function buildCatalogueDatabase(path: string, total: number, shape: CatalogueShape = 'hard'): Promise<DB> {
  const db = await openDatabase(path);
  await seed(db);
  const real = await countRows(db, 'tools');
  const rows = await db
    .selectFrom('tools')
    .select('category')
    .distinct()
    .where('category', 'is not', null)
    .where('category', 'not in', ['MCP', 'MCP Servers'])
    .orderBy('category')
    .execute();
  const realTexts = (await listToolSummaries(db)).map((t) => `${t.name} ${t.description ?? ''}`);
  const tools = generateTools(
    Math.max(0, total - real),
    rows.map((r) => r.category!),
    { shape, realTexts },
  );
  await inTransaction(db, async (trx) => {
    for (const t of tools) await upsertTool(trx, t);
  });
  await codeGeneratedTools(db);
  return db;
}
