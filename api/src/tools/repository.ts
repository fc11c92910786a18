import type { DB } from '../db/connection';

/** Tools are stored whole as JSON (the seed's shape) with the columns the list needs for indexing. */
export interface ToolRow {
  id: number;
  doc: string;
}

export function listToolDocs(db: DB): Record<string, unknown>[] {
  const rows = db.prepare('SELECT id, doc FROM tools ORDER BY id').all() as ToolRow[];
  return rows.map((r) => ({ id: r.id, ...JSON.parse(r.doc) }));
}

export function getToolDoc(db: DB, slug: string): Record<string, unknown> | null {
  const row = db.prepare('SELECT id, doc FROM tools WHERE slug = ?').get(slug) as ToolRow | undefined;
  return row ? { id: row.id, ...JSON.parse(row.doc) } : null;
}

export function upsertTool(db: DB, tool: { slug: string; name: string; category?: string; pricing?: string; popularityScore?: number } & Record<string, unknown>): void {
  db.prepare(
    `INSERT INTO tools (slug, name, category, pricing, popularity_score, doc) VALUES (@slug, @name, @category, @pricing, @popularity, @doc)
     ON CONFLICT(slug) DO UPDATE SET name = excluded.name, category = excluded.category, pricing = excluded.pricing,
       popularity_score = excluded.popularity_score, doc = excluded.doc`,
  ).run({
    slug: tool.slug,
    name: tool.name,
    category: tool.category ?? null,
    pricing: tool.pricing ?? null,
    popularity: typeof tool.popularityScore === 'number' ? tool.popularityScore : null,
    doc: JSON.stringify(tool),
  });
}
