/**
 * Editors' changes to tools (docs/operations.md, Editing content: Tools): a save of every field the page shows, hide and
 * unhide, and a slug change that leaves a redirect behind. Each runs in one transaction that bumps the data version
 * (every cache and instance sees it at once) and writes its row of the audit trail.
 */
import type { ServerJson } from '@aitools/contracts/mcp';
import type { Tool } from '@aitools/contracts/tools';
import type { ToolEdit } from '@aitools/contracts/toolEdit';
import type { EditorToolRow } from '@aitools/contracts/editing';
import { storedPlans } from '@aitools/contracts/plans';
import { containsText, inTransaction, type DB } from '../db/connection';
import { bumpDataVersion } from '../content/dataVersion';
import { HttpError, notAccepted } from '../middleware/errors';
import { TOOL_FORM } from '@aitools/contracts/formFields';
import { writeAudit, type AuditEntry } from '../content/audit';
import { getServerByToolSlug, upsertServer } from '../registry/repository';
import { addSlugAlias } from '../content/toolSlugs';
import { findTool, toolColumns, type ToolInput } from './repository';

/** Who acts and from where, for the audit trail. */
export interface Editor {
  actor: string;
  address: string;
}

const LIST_MAX = 500;

/** The editors' list: every tool, hidden ones included, filtered by a substring of its name or slug. */
export async function listToolsForEditors(db: DB, search = ''): Promise<EditorToolRow[]> {
  let q = db
    .selectFrom('tools')
    .select(['id', 'slug', 'name', 'category', 'pricing', 'hidden_at'])
    .orderBy('name')
    .limit(LIST_MAX);
  const text = search.trim();
  if (text) q = q.where((eb) => eb.or([containsText('name', text), containsText('slug', text)]));
  return (await q.execute()).map(({ hidden_at, ...r }) => ({ ...r, id: Number(r.id), hidden: hidden_at !== null }));
}

/** The record an editor works on: the tool's fields, whether it is hidden, and its MCP registry record. */
export interface EditableTool {
  tool: Tool;
  hidden: boolean;
  mcpServer: ServerJson | null;
}

export async function getEditableTool(db: DB, slug: string): Promise<EditableTool | null> {
  const found = await findTool(db, slug);
  if (!found) return null;
  return { ...found, mcpServer: await getServerByToolSlug(db, found.tool.slug) };
}

export async function requireTool(db: DB, slug: string): Promise<EditableTool> {
  const found = await getEditableTool(db, slug);
  if (!found) throw new HttpError(404, `No tool has the slug "${slug}".`);
  return found;
}

/** The edit applied to the stored tool; a list left out of the edit (one from before it was editable) is kept. */
export function applyEdit(tool: Tool, edit: ToolEdit, today: string): ToolInput {
  const { mcpServer: _server, plans, keyFeatures = tool.keyFeatures, faqs = tool.faqs, ...fields } = edit;
  const next: ToolInput = { ...tool, ...fields, keyFeatures, faqs, lastUpdated: today };
  for (const key of ['fullDescription', 'logo', 'company', 'mcpBadge'] as const)
    if (fields[key] === undefined) delete next[key];
  if (plans) next.detailedPricing = storedPlans(plans);
  // An empty list shows nothing on the page either way; it is not stored.
  if (!keyFeatures?.length) delete next.keyFeatures;
  if (!faqs?.length) delete next.faqs;
  if (plans && !plans.length) delete next.detailedPricing;
  return next;
}

/**
 * Moves a tool to a new slug inside `trx`: its MCP record and inspection follow (their rows name the tool by slug,
 * so they are written again under the new one), as do its checks' snapshots, flags and dismissals, and the old slug
 * becomes an alias.
 */
async function moveSlug(trx: DB, from: string, to: string): Promise<void> {
  const taken = await trx.selectFrom('tools').select('id').where('slug', '=', to).executeTakeFirst();
  if (taken) throw notAccepted(TOOL_FORM, { slug: `Another tool has the slug "${to}"` });
  const servers = await trx.selectFrom('mcp_servers').selectAll().where('tool_slug', '=', from).execute();
  const inspections = await trx.selectFrom('mcp_inspections').selectAll().where('tool_slug', '=', from).execute();
  await trx.deleteFrom('mcp_servers').where('tool_slug', '=', from).execute();
  await trx.deleteFrom('mcp_inspections').where('tool_slug', '=', from).execute();
  await trx.updateTable('tools').set({ slug: to }).where('slug', '=', from).execute();
  for (const s of servers)
    await trx
      .insertInto('mcp_servers')
      .values({ ...s, tool_slug: to })
      .execute();
  for (const i of inspections)
    await trx
      .insertInto('mcp_inspections')
      .values({ ...i, tool_slug: to })
      .execute();
  for (const table of ['check_snapshots', 'check_rug_pulls', 'check_dismissals'] as const)
    await trx.updateTable(table).set({ tool_slug: to }).where('tool_slug', '=', from).execute();
  await addSlugAlias(trx, from, to);
}

/** Writes an edited tool under `slug` (its current one) in the caller's transaction (content/changes.ts bumps the data
 *  version with it); returns the saved record. */
export async function writeToolEdit(trx: DB, current: EditableTool, edit: ToolEdit, today: string): Promise<Tool> {
  const from = current.tool.slug;
  if (edit.slug !== from) await moveSlug(trx, from, edit.slug);
  const next = applyEdit(current.tool, edit, today);
  await trx.updateTable('tools').set(toolColumns(next)).where('slug', '=', edit.slug).execute();
  if (edit.mcpServer === null) await trx.deleteFrom('mcp_servers').where('tool_slug', '=', edit.slug).execute();
  else if (edit.mcpServer && JSON.stringify(edit.mcpServer) !== JSON.stringify(current.mcpServer)) {
    // A registry name is one server's: another tool's record is never taken over by an edit.
    const { name } = edit.mcpServer;
    const owner = await trx.selectFrom('mcp_servers').select('tool_slug').where('name', '=', name).executeTakeFirst();
    if (owner && owner.tool_slug !== edit.slug)
      throw notAccepted(TOOL_FORM, {
        mcpServer: `Another tool ("${owner.tool_slug}") has the registry name "${name}"`,
      });
    // A record renamed by the editor replaces the old one. Stored as not the seed's, so a restart keeps it.
    await trx.deleteFrom('mcp_servers').where('tool_slug', '=', edit.slug).execute();
    await upsertServer(trx, { doc: edit.mcpServer as ServerJson, toolSlug: edit.slug, source: 'import' });
  }
  return { ...next, id: current.tool.id } as Tool;
}

/** Hides or shows a tool again; false when it already was. */
export async function setToolHidden(db: DB, slug: string, hidden: boolean, by: Editor): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    await requireTool(trx, slug);
    const now = new Date().toISOString();
    const r = await trx
      .updateTable('tools')
      .set({ hidden_at: hidden ? now : null })
      .where('slug', '=', slug)
      .where('hidden_at', hidden ? 'is' : 'is not', null)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) return false;
    // Shown again, its MCP record is a change: /v0.1's `updated_since` lists it active from now, so a registry
    // following ours takes back the server it was told was deleted (docs/mcp.md, Following upstream registries).
    if (!hidden) await trx.updateTable('mcp_servers').set({ updated_at: now }).where('tool_slug', '=', slug).execute();
    await bumpDataVersion(trx);
    await audit(trx, by, {
      action: hidden ? 'tool.hide' : 'tool.unhide',
      target: `/tool/${slug}`,
      summary: hidden ? 'shown -> hidden (410 Gone)' : 'hidden -> shown',
    });
    return true;
  });
}

export function audit(db: DB, by: Editor, entry: Omit<AuditEntry, 'actor' | 'address'>): Promise<void> {
  return writeAudit(db, { ...entry, actor: by.actor, address: by.address });
}
