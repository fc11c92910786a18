import type { DB } from '../db/connection';
import { publicWrite } from '../db/dataVersion';
import { toToolSummary, type Tool, type ToolSummary } from '../contracts/tools';

/** Tools are stored whole as JSON (the seed's shape) with the columns the list needs for indexing. */
interface ToolRow {
  id: number;
  doc: string;
}

function rowToTool(row: ToolRow): Tool {
  return { ...(JSON.parse(row.doc) as Omit<Tool, 'id'>), id: row.id };
}

/** The list the home page works on: summaries only (no full descriptions, plans or FAQs). */
export function listToolSummaries(db: DB): ToolSummary[] {
  const rows = db.prepare('SELECT id, doc FROM tools ORDER BY id').all() as ToolRow[];
  return rows.map((r) => toToolSummary(rowToTool(r)));
}

export function getTool(db: DB, slug: string): Tool | null {
  const row = db.prepare('SELECT id, doc FROM tools WHERE slug = ?').get(slug) as ToolRow | undefined;
  return row ? rowToTool(row) : null;
}

export type ToolInput = Omit<Tool, 'id'> & { id?: number };

/** Inserts or updates a tool by slug; a write that changes nothing is skipped (so the seed at each start leaves the
 *  data version alone). Returns whether a row changed. */
export function upsertTool(db: DB, tool: ToolInput): boolean {
  const { id: _ignored, ...doc } = tool;
  const write = db.prepare(
    `INSERT INTO tools (slug, name, category, pricing, popularity_score, doc) VALUES (@slug, @name, @category, @pricing, @popularity, @doc)
     ON CONFLICT(slug) DO UPDATE SET name = excluded.name, category = excluded.category, pricing = excluded.pricing,
       popularity_score = excluded.popularity_score, doc = excluded.doc
     WHERE tools.doc <> excluded.doc`,
  );
  return publicWrite(db, () => write.run({
    slug: tool.slug,
    name: tool.name,
    category: tool.category ?? null,
    pricing: tool.pricing ?? null,
    popularity: typeof tool.popularityScore === 'number' ? tool.popularityScore : null,
    doc: JSON.stringify(doc),
  }).changes > 0);
}
