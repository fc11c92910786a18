import type { DB } from '../db/connection';
import { upsertPublic } from '../content/dataVersion';
import type { ServerJson } from '@aitools/contracts/mcp';
import { readVersionsFile } from './versions';

/** Where a record came from: the seed file (kept in step with it) or a registry import (the seed leaves it alone). */
export type RecordSource = 'seed' | 'import';

export interface McpServerRow {
  name: string;
  tool_slug: string;
  doc: string;
  source: RecordSource;
  updated_at: string;
}

export async function getServerByToolSlug(db: DB, slug: string): Promise<ServerJson | null> {
  const row = await db.selectFrom('mcp_servers').select('doc').where('tool_slug', '=', slug).executeTakeFirst();
  return row ? (JSON.parse(row.doc) as ServerJson) : null;
}

export async function getServerRow(db: DB, name: string): Promise<McpServerRow | null> {
  return (await db.selectFrom('mcp_servers').selectAll().where('name', '=', name).executeTakeFirst()) ?? null;
}

let renamed: Record<string, string> | undefined;
/** The name a renamed record has now, for a name it had before (mcp-versions.json `renamed`, docs/mcp.md): /v0.1's
 *  old addresses and get_tool both read it. The file changes with a commit only, so it is read once. */
export function renamedTo(name: string): string | undefined {
  renamed ??= readVersionsFile()?.renamed ?? {};
  return Object.hasOwn(renamed, name) ? renamed[name] : undefined;
}

/**
 * Inserts or replaces a server's record. A seed write never replaces an imported record, and a write that changes
 * nothing keeps updated_at (what `updated_since` and the feeds go by). Returns whether a row changed.
 */
export function upsertServer(
  db: DB,
  rec: { doc: ServerJson; toolSlug: string; source: RecordSource; updatedAt?: string },
): Promise<boolean> {
  return upsertServers(db, [rec]);
}

/** upsertServer for many records of distinct names, in one statement (a sync's page). */
export function upsertServers(
  db: DB,
  recs: { doc: ServerJson; toolSlug: string; source: RecordSource; updatedAt?: string }[],
): Promise<boolean> {
  const now = new Date().toISOString();
  const rows = recs.map((rec) => ({
    name: rec.doc.name,
    tool_slug: rec.toolSlug,
    doc: JSON.stringify(rec.doc),
    source: rec.source,
    updated_at: rec.updatedAt ?? now,
  }));
  return upsertPublic(db, 'mcp_servers', rows, {
    key: 'name',
    replaceWhen: (eb) =>
      eb.and([
        eb.or([eb('excluded.source', '=', 'import'), eb('mcp_servers.source', '=', 'seed')]),
        eb.or([
          eb('mcp_servers.doc', '<>', eb.ref('excluded.doc')),
          eb('mcp_servers.tool_slug', '<>', eb.ref('excluded.tool_slug')),
        ]),
      ]),
  });
}

/** A record with the listing facts the registry answers and feeds add to it. */
export interface ListedServer {
  doc: ServerJson;
  slug: string;
  updatedAt: string;
  category: string | null;
  popularity: number | null;
  toolName: string;
  /** When its tool was hidden: only a list of changes (`updatedSince`) holds such a record, as deleted. */
  hiddenAt: string | null;
}

interface ListedRow {
  doc: string;
  tool_slug: string;
  updated_at: string;
  category: string | null;
  popularity_score: number | null;
  tool_name: string;
  hidden_at: string | null;
}

const toListed = (r: ListedRow): ListedServer => ({
  doc: JSON.parse(r.doc) as ServerJson,
  slug: r.tool_slug,
  updatedAt: r.updated_at,
  category: r.category,
  popularity: r.popularity_score,
  toolName: r.tool_name,
  hiddenAt: r.hidden_at,
});

/** Records joined with their tool's listing facts. */
const withListing = (db: DB) =>
  db
    .selectFrom('mcp_servers as s')
    .innerJoin('tools as t', 't.slug', 's.tool_slug')
    .select([
      's.doc',
      's.tool_slug',
      's.updated_at',
      't.category',
      't.popularity_score',
      't.name as tool_name',
      't.hidden_at',
    ]);
/** A hidden tool's record is not listed. */
const listed = (db: DB) => withListing(db).where('t.hidden_at', 'is', null);

export interface ServerQuery {
  /** The directory's search, and a case-insensitive substring of the server name or title. */
  search?: string;
  /** With a search: the slugs the directory's search found for it, best first (tools/search.ts findServers; the
   *  caller runs it, as the ranking lives on a floor above this one). */
  ranked?: string[];
  /** Only servers after this one (cursor paging: by name, or by rank when searching). */
  after?: string;
  updatedSince?: string;
  limit: number;
}

export interface ServerPage {
  servers: ListedServer[];
  more: boolean;
}

/** One page of servers ordered by name, or with a search in the directory's order (the servers its search finds,
 *  best first, then those whose name or title contains the text); one row more than the limit tells whether
 *  another page follows. Null when a search's `after` is no longer among its results (hidden, renamed, or no longer
 *  found): where it stood in the ranking is unknown, so the walk cannot go on from it (docs/mcp.md). */
export async function listServers(db: DB, q: ServerQuery): Promise<ServerPage | null> {
  if (q.search) return searchServers(db, { ...q, search: q.search });
  const since = q.updatedSince;
  // The changes since a time include the servers hidden since, so that a registry following ours sees them deleted.
  let query = (
    since
      ? withListing(db).where((eb) =>
          eb.or([
            eb.and([eb('t.hidden_at', 'is', null), eb('s.updated_at', '>', since)]),
            eb('t.hidden_at', '>', since),
          ]),
        )
      : listed(db)
  )
    .orderBy('s.name')
    .limit(q.limit + 1);
  if (q.after) query = query.where('s.name', '>', q.after);
  const rows = (await query.execute()).map(toListed);
  return { servers: rows.slice(0, q.limit), more: rows.length > q.limit };
}

async function searchServers(db: DB, q: ServerQuery & { search: string }): Promise<ServerPage | null> {
  const rank = new Map((q.ranked ?? []).map((slug, i) => [slug, i]));
  let query = listed(db).orderBy('s.name');
  if (q.updatedSince) query = query.where('s.updated_at', '>', q.updatedSince);
  const lowered = q.search.toLowerCase();
  const named = (s: ListedServer) =>
    s.doc.name.toLowerCase().includes(lowered) || (s.doc.title ?? '').toLowerCase().includes(lowered);
  const all = (await query.execute()).map(toListed);
  const ranked = all.filter((s) => rank.has(s.slug)).sort((a, b) => rank.get(a.slug)! - rank.get(b.slug)!);
  let rows = [...ranked, ...all.filter((s) => !rank.has(s.slug) && named(s))];
  if (q.after) {
    const at = rows.findIndex((s) => s.doc.name === q.after);
    if (at < 0) return null;
    rows = rows.slice(at + 1);
  }
  return { servers: rows.slice(0, q.limit), more: rows.length > q.limit };
}

export async function getListedServer(db: DB, name: string): Promise<ListedServer | null> {
  const row = await listed(db).where('s.name', '=', name).executeTakeFirst();
  return row ? toListed(row) : null;
}

/** Pending submissions carry the server.json an import attached to them (null for the /submit form's). */
export async function getSubmissionServer(db: DB, submissionId: number): Promise<ServerJson | null> {
  const row = await db
    .selectFrom('submission_servers')
    .select('doc')
    .where('submission_id', '=', submissionId)
    .executeTakeFirst();
  return row ? (JSON.parse(row.doc) as ServerJson) : null;
}

/** On approval: an imported submission's server.json becomes the new tool's record (its page then shows install
 *  snippets). A submission from the /submit form has none and nothing happens. */
export async function attachSubmittedServer(db: DB, submissionId: number, toolSlug: string): Promise<void> {
  const doc = await getSubmissionServer(db, submissionId);
  if (doc) await upsertServer(db, { doc, toolSlug, source: 'import' });
}
