import type { DB } from '../db/connection';
import { publicWrite } from '../db/dataVersion';
import { toToolSummary, type Tool, type ToolSummary } from '../contracts/tools';

/** Tools are stored whole as JSON (the seed's shape) with the columns the list needs for indexing. */
interface ToolRow {
  id: number;
  doc: string;
}

export function rowToTool(row: ToolRow): Tool {
  return { ...(JSON.parse(row.doc) as Omit<Tool, 'id'>), id: row.id };
}

/** The list the home page works on: summaries only (no full descriptions, plans or FAQs). */
export async function listToolSummaries(db: DB): Promise<ToolSummary[]> {
  const rows = await db.selectFrom('tools').select(['id', 'doc']).orderBy('id').execute();
  return rows.map((r) => toToolSummary(rowToTool(r)));
}

export async function getTool(db: DB, slug: string): Promise<Tool | null> {
  const row = await db.selectFrom('tools').select(['id', 'doc']).where('slug', '=', slug).executeTakeFirst();
  return row ? rowToTool(row) : null;
}

export type ToolInput = Omit<Tool, 'id'> & { id?: number };

/** Inserts or updates a tool by slug; a write that changes nothing is skipped (so the seed at each start leaves the
 *  data version alone). Returns whether a row changed. */
export function upsertTool(db: DB, tool: ToolInput): Promise<boolean> {
  const { id: _ignored, ...doc } = tool;
  const row = {
    slug: tool.slug,
    name: tool.name,
    category: tool.category ?? null,
    pricing: tool.pricing ?? null,
    popularity_score: typeof tool.popularityScore === 'number' ? tool.popularityScore : null,
    doc: JSON.stringify(doc),
    created_at: new Date().toISOString(),
  };
  return publicWrite(db, async (trx) => {
    const r = await trx
      .insertInto('tools')
      .values(row)
      .onConflict((oc) =>
        oc
          .column('slug')
          .doUpdateSet((eb) => ({
            name: eb.ref('excluded.name'),
            category: eb.ref('excluded.category'),
            pricing: eb.ref('excluded.pricing'),
            popularity_score: eb.ref('excluded.popularity_score'),
            doc: eb.ref('excluded.doc'),
          }))
          .where((eb) => eb('tools.doc', '<>', eb.ref('excluded.doc'))),
      )
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  });
}
