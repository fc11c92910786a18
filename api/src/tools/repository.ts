import { dialectOf, type DB } from '../db/connection';
import { dataVersion, publicWrite, upsertPublic } from '../content/dataVersion';
import { toToolSummary, type Tool, type ToolSummary } from '@aitools/contracts/tools';
import { offeredToolNames } from '../registry/inspections';
import { openFindingCounts } from '../checks/facts';
import { lastHealth } from '../checks/health';

/** Tools are stored whole as JSON (the seed's shape) with the columns the list needs for indexing. */
interface ToolRow {
  id: number;
  doc: string;
}

export function rowToTool(row: ToolRow): Tool {
  return { ...(JSON.parse(row.doc) as Omit<Tool, 'id'>), id: row.id };
}

// One list per database and data version: reading and parsing 10,000 rows costs tens of milliseconds, and the
// directory's query index (contracts/src/toolQuery.ts) is kept per list. Frozen, since every reader shares it.
const held = new WeakMap<DB, { version: number; list: Promise<readonly ToolSummary[]> }>();

/** The list the home page works on: summaries only (no full descriptions, plans or FAQs), shared and read-only. */
export async function listToolSummaries(db: DB): Promise<ToolSummary[]> {
  // The version is read before the rows, so a list is never kept under a newer version than its data.
  const version = await dataVersion(db);
  let entry = held.get(db);
  if (entry?.version !== version) {
    // An MCP server's summary carries the names of the tools it offers, so the directory's search finds it by them.
    const list = Promise.all([
      db.selectFrom('tools').select(['id', 'doc']).where('hidden_at', 'is', null).orderBy('id').execute(),
      offeredToolNames(db),
      openFindingCounts(db),
      lastHealth(db),
    ]).then(([rows, offered, findings, health]) =>
      Object.freeze(
        rows.map((r) => {
          const summary = toToolSummary(rowToTool(r));
          const names = offered.get(summary.slug);
          // An inspected server's open findings: 0 says its texts were checked and nothing is open.
          const checked = names
            ? { ...summary, mcpTools: names, openFindings: findings.get(summary.slug) ?? 0 }
            : summary;
          const status = health.get(summary.slug);
          return status ? { ...checked, health: status } : checked;
        }),
      ),
    );
    entry = { version, list };
    held.set(db, entry);
    list.catch(() => held.get(db) === entry && held.delete(db));
  }
  return (await entry.list) as ToolSummary[];
}

/** A tool as the public sees it: null when there is none or it is hidden. */
export async function getTool(db: DB, slug: string): Promise<Tool | null> {
  const found = await findTool(db, slug);
  return found && !found.hidden ? found.tool : null;
}

/** A tool whether hidden or not (the tool page answers 410 for a hidden one; editors see both). */
export async function findTool(db: DB, slug: string): Promise<{ tool: Tool; hidden: boolean } | null> {
  const row = await db
    .selectFrom('tools')
    .select(['id', 'doc', 'hidden_at'])
    .where('slug', '=', slug)
    .executeTakeFirst();
  return row ? { tool: rowToTool(row), hidden: row.hidden_at !== null } : null;
}

/** The columns the list indexes, from a tool's document. */
export function toolColumns(tool: ToolInput) {
  const { id: _ignored, ...doc } = tool;
  return {
    slug: tool.slug,
    name: tool.name,
    category: tool.category ?? null,
    pricing: tool.pricing ?? null,
    popularity_score: typeof tool.popularityScore === 'number' ? tool.popularityScore : null,
    doc: JSON.stringify(doc),
  };
}

export type ToolInput = Omit<Tool, 'id'> & { id?: number };

/**
 * Locks tools' rows (all of them, or those of `ids`) until the caller's transaction ends, in the order of their ids.
 * On Postgres two transactions run at once, and a change that writes a whole tool from what it read (a rename of a
 * category or tag, an editor's save) would otherwise write back what the other changed meanwhile; SQLite runs one
 * transaction at a time.
 */
export async function lockTools(trx: DB, ids?: number[]): Promise<void> {
  if (dialectOf(trx) !== 'postgres') return;
  await trx
    .selectFrom('tools')
    .select('id')
    .$if(ids !== undefined, (q) => q.where('id', 'in', ids!))
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** Inserts or updates a tool by slug; a write that changes nothing is skipped (so the seed at each start leaves the
 *  data version alone). Returns whether a row changed. */
export function upsertTool(db: DB, tool: ToolInput): Promise<boolean> {
  const row = { ...toolColumns(tool), created_at: new Date().toISOString() };
  return upsertPublic(db, 'tools', row, { key: 'slug', keep: ['created_at'] });
}

/**
 * The seed's write: inserts a tool whose slug no tool has, nor had (an alias of a renamed tool); a tool already
 * there is left as it is, so a restart never undoes an editor's change. Returns whether a row was written.
 */
export function insertToolIfAbsent(db: DB, tool: ToolInput): Promise<boolean> {
  return publicWrite(db, async (trx) => {
    const alias = await trx
      .selectFrom('tool_slug_aliases')
      .select('slug')
      .where('old_slug', '=', tool.slug)
      .executeTakeFirst();
    if (alias) return false;
    const r = await trx
      .insertInto('tools')
      .values({ ...toolColumns(tool), created_at: new Date().toISOString() })
      .onConflict((oc) => oc.column('slug').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  });
}
