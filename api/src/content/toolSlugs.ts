/**
 * The slug rule of tools, read by the tools' editing and the registry's seeding alike: a renamed tool's old slugs
 * point at its current one (tool_slug_aliases), and the tools an editor has changed are the database's, never the seed
 * files' (docs/operations.md, Editing content: Tools).
 */
import type { DB } from '../db/connection';

/** Records that `from` now answers with `to` (inside the caller's transaction); `to` itself stops being an alias. */
export async function addSlugAlias(trx: DB, from: string, to: string): Promise<void> {
  await trx.deleteFrom('tool_slug_aliases').where('old_slug', '=', to).execute();
  await trx.updateTable('tool_slug_aliases').set({ slug: to }).where('slug', '=', from).execute();
  await trx
    .insertInto('tool_slug_aliases')
    .values({ old_slug: from, slug: to })
    .onConflict((oc) => oc.column('old_slug').doUpdateSet({ slug: to }))
    .execute();
}

/** The slug a tool has now, given one it may have had (the seed files name tools by their first slug). */
export async function currentSlug(db: DB, slug: string): Promise<string> {
  const row = await db.selectFrom('tool_slug_aliases').select('slug').where('old_slug', '=', slug).executeTakeFirst();
  return row?.slug ?? slug;
}

/**
 * The slugs of the tools an editor has changed (a saved version of theirs exists, a rename's included). For these the
 * database is the source of truth: the seed files no longer write what belongs to them (their MCP record and its
 * inspection), a record the editor removed included, nor onto a tool that took a slug the seed file names.
 */
export async function editedToolSlugs(db: DB): Promise<Set<string>> {
  const keys = new Set(
    (await db.selectFrom('content_revisions').select('key').distinct().where('kind', '=', 'tool').execute()).map(
      (r) => r.key,
    ),
  );
  if (!keys.size) return new Set();
  const tools = await db.selectFrom('tools').select(['id', 'slug']).execute();
  return new Set(tools.filter((t) => keys.has(String(t.id))).map((t) => t.slug));
}
