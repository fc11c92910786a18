/** Inspections (what each MCP server offers) in the database: loaded from data/mcp-inspections.json by the seed. */
import { inTransaction, type DB } from '../db/connection';
import { publicWrite, upsertPublic } from '../content/dataVersion';
import { INSPECTIONS_FILE, readInspectionsFile } from '../inspectionsFile';
import type { McpInspection } from '@aitools/contracts/inspection';
import { currentSlug, editedToolSlugs } from '../content/toolSlugs';
import { recordSnapshot } from '../checks/history';

/** Makes the table match the file: each tool's inspection written when it changed (and kept as a snapshot of its
 *  version), those no longer in it removed; a tool an editor changed, and a remote server inspected over its
 *  transport, keep what they have. */
export async function seedInspections(db: DB, file = INSPECTIONS_FILE): Promise<number> {
  const { servers } = readInspectionsFile(file);
  await inTransaction(db, async (trx) => {
    const tools = new Set((await trx.selectFrom('tools').select('slug').execute()).map((r) => r.slug));
    // The tools an editor changed keep their inspection as it is (editedToolSlugs), moved with a new slug included.
    const edited = await editedToolSlugs(trx);
    // A remote server's inspection is written by the remote inspection (remote.ts), not the file: kept as it is.
    for (const row of await trx.selectFrom('mcp_inspections').select(['tool_slug', 'doc']).execute())
      if ((JSON.parse(row.doc) as McpInspection).remote) edited.add(row.tool_slug);
    const kept: string[] = [...edited];
    for (const [seedSlug, inspection] of Object.entries(servers)) {
      // The file names tools by the slug they were seeded with; an editor may have changed it since.
      const slug = await currentSlug(trx, seedSlug);
      if (!tools.has(slug)) throw new Error(`mcp-inspections.json ${seedSlug}: no seeded tool has this slug`);
      if (edited.has(slug)) continue;
      kept.push(slug);
      await upsertPublic(
        trx,
        'mcp_inspections',
        { tool_slug: slug, doc: JSON.stringify(inspection) },
        { key: 'tool_slug' },
      );
      // Each new content is kept as a snapshot of its version (checks/history.ts); the same content is not.
      await recordSnapshot(trx, slug, inspection);
    }
    await publicWrite(trx, async (w) => {
      let q = w.deleteFrom('mcp_inspections');
      if (kept.length) q = q.where('tool_slug', 'not in', kept);
      return Number((await q.executeTakeFirst()).numDeletedRows) > 0;
    });
  });
  return Object.keys(servers).length;
}

export async function getInspection(db: DB, slug: string): Promise<McpInspection | null> {
  const row = await db.selectFrom('mcp_inspections').select('doc').where('tool_slug', '=', slug).executeTakeFirst();
  return row ? (JSON.parse(row.doc) as McpInspection) : null;
}

/** Inspections of the given tools, by slug (one query for a page of /v0.1 answers). */
export async function inspectionsFor(db: DB, slugs: string[]): Promise<Map<string, McpInspection>> {
  if (!slugs.length) return new Map();
  const rows = await db
    .selectFrom('mcp_inspections')
    .select(['tool_slug', 'doc'])
    .where('tool_slug', 'in', slugs)
    .execute();
  return new Map(rows.map((r) => [r.tool_slug, JSON.parse(r.doc) as McpInspection]));
}

const firstSentence = (text: string) => (text.trim().split(/(?<=[.!?])\s|\n/)[0] ?? '').slice(0, 200);

type OfferedTool = Extract<McpInspection, { status: 'inspected' }>['tools'][number];

/** The MCP tools each inspected server offers, by its tool's slug (servers that offer none are left out): what the
 *  directory's summaries and its ranking both read. */
async function offeredTools(db: DB): Promise<Map<string, OfferedTool[]>> {
  const rows = await db.selectFrom('mcp_inspections').select(['tool_slug', 'doc']).execute();
  const out = new Map<string, OfferedTool[]>();
  for (const r of rows) {
    const inspection = JSON.parse(r.doc) as McpInspection;
    if (inspection.status === 'inspected' && inspection.tools.length) out.set(r.tool_slug, inspection.tools);
  }
  return out;
}

/** What the directory's ranking reads of each inspected server's MCP tools (tools/searchIndex.ts), by the server's
 *  tool slug: their names and titles, and the first sentence of each description (what the tool does: some servers'
 *  descriptions are manuals of tens of kilobytes, which would match any words). */
export async function offeredToolTexts(db: DB): Promise<Map<string, { names: string; descriptions: string }>> {
  const out = new Map<string, { names: string; descriptions: string }>();
  for (const [slug, tools] of await offeredTools(db))
    out.set(slug, {
      names: tools.map((t) => `${t.name} ${t.title ?? ''}`).join('\n'),
      descriptions: tools.map((t) => firstSentence(t.description ?? '')).join('\n'),
    });
  return out;
}

/** The names of the MCP tools each inspected server offers, by its tool's slug (what the directory search also reads). */
export async function offeredToolNames(db: DB): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const [slug, tools] of await offeredTools(db))
    out.set(
      slug,
      tools.map((t) => t.name),
    );
  return out;
}
