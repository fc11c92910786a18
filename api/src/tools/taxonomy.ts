/**
 * Categories and tags as the tools say them (docs/operations.md, Editing content: Tools): each with its count, and a rename
 * or a merge of one into another (the same call: merging is renaming onto a name in use), all tools in one
 * transaction with one bump of the data version.
 */
import { parseTags, type Tool } from '@aitools/contracts/tools';
import type { TaxonomyRename } from '@aitools/contracts/toolEdit';
import type { RenamePlan, Taxonomy, TaxonomyEntry } from '@aitools/contracts/editing';
import { inTransaction, type DB } from '../db/connection';
import { bumpDataVersion } from '../content/dataVersion';
import { HttpError, notAccepted } from '../middleware/errors';
import { TAXONOMY_FORM } from '@aitools/contracts/formFields';
import { lockTools, rowToTool, toolColumns } from './repository';

const allTools = async (db: DB): Promise<Tool[]> =>
  (await db.selectFrom('tools').select(['id', 'doc']).orderBy('id').execute()).map(rowToTool);

/** Names with how many times each occurs, most first (then by name). */
export function counted(names: Iterable<string>): TaxonomyEntry[] {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts]
    .map(([name, tools]) => ({ name, tools }))
    .sort((a, b) => b.tools - a.tools || a.name.localeCompare(b.name));
}

export async function taxonomy(db: DB): Promise<Taxonomy> {
  const tools = await allTools(db);
  return {
    categories: counted(tools.flatMap((t) => (t.category ? [t.category] : []))),
    tags: counted(tools.flatMap((t) => [...new Set(parseTags(t.tags))])),
  };
}

/** The tool with `from` renamed to `to`, or null when it does not have `from`. Tags stay unique (any case). */
function renamed(tool: Tool, { kind, from, to }: TaxonomyRename): Tool | null {
  if (kind === 'category') return tool.category === from ? { ...tool, category: to } : null;
  const tags = parseTags(tool.tags);
  if (!tags.includes(from)) return null;
  const seen = new Set<string>();
  const next = tags
    .map((t) => (t === from ? to : t))
    .filter((t) => {
      const key = t.toLowerCase();
      return !seen.has(key) && seen.add(key);
    });
  return { ...tool, tags: next };
}

async function plan(db: DB, rename: TaxonomyRename): Promise<{ plan: RenamePlan; changed: Tool[] }> {
  if (rename.from === rename.to) throw notAccepted(TAXONOMY_FORM, { to: 'The new name is the same' });
  const tools = await allTools(db);
  const changed = tools.flatMap((t) => renamed(t, rename) ?? []);
  if (!changed.length)
    throw new HttpError(404, `No tool has the ${rename.kind} "${rename.from}".`, {
      from: `No tool has this ${rename.kind}`,
    });
  const inUse = tools.some((t) =>
    rename.kind === 'category' ? t.category === rename.to : parseTags(t.tags).includes(rename.to),
  );
  return { plan: { tools: changed.length, merge: inUse, slugs: changed.map((t) => t.slug) }, changed };
}

/** What a rename would do, without doing it (the console's preview). */
export async function previewRename(db: DB, rename: TaxonomyRename): Promise<RenamePlan> {
  return (await plan(db, rename)).plan;
}

/**
 * Renames or merges in one transaction: every tool with `from` is written, or none is. Inside it, `record` runs for
 * each changed tool (its saved version) and `finish` once at the end (the audit row).
 */
export function applyRename(
  db: DB,
  rename: TaxonomyRename,
  record: (trx: DB, before: Tool, after: Tool) => Promise<void>,
  finish: (trx: DB, done: RenamePlan) => Promise<void>,
): Promise<RenamePlan> {
  return inTransaction(db, async (trx) => {
    // Every tool is read after its lock, so no save made meanwhile is written back over (lockTools).
    await lockTools(trx);
    const { plan: done, changed } = await plan(trx, rename);
    const before = new Map((await allTools(trx)).map((t) => [t.id, t]));
    for (const tool of changed) {
      await trx.updateTable('tools').set(toolColumns(tool)).where('id', '=', tool.id).execute();
      await record(trx, before.get(tool.id)!, tool);
    }
    await bumpDataVersion(trx);
    await finish(trx, done);
    return done;
  });
}
