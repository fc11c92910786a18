import type { DB } from '../db/connection';
import { publicWrite } from '../db/dataVersion';
import type { ServerJson } from '../contracts/mcp';

/** Where a record came from: the seed file (kept in step with it) or a registry import (the seed leaves it alone). */
export type RecordSource = 'seed' | 'import';

export interface McpServerRow {
  name: string;
  tool_slug: string;
  doc: string;
  source: RecordSource;
  updated_at: string;
}

export function getServerByToolSlug(db: DB, slug: string): ServerJson | null {
  const row = db.prepare('SELECT doc FROM mcp_servers WHERE tool_slug = ?').get(slug) as { doc: string } | undefined;
  return row ? (JSON.parse(row.doc) as ServerJson) : null;
}

export function getServerRow(db: DB, name: string): McpServerRow | null {
  return (db.prepare('SELECT * FROM mcp_servers WHERE name = ?').get(name) as McpServerRow | undefined) ?? null;
}

/**
 * Inserts or replaces a server's record. A seed write never replaces an imported record, and a write that changes
 * nothing keeps updated_at (what `updated_since` and the feeds go by). Returns whether a row changed.
 */
export function upsertServer(db: DB, rec: { doc: ServerJson; toolSlug: string; source: RecordSource; updatedAt?: string }): boolean {
  const write = db.prepare(
      `INSERT INTO mcp_servers (name, tool_slug, doc, source, updated_at) VALUES (@name, @slug, @doc, @source, @updatedAt)
       ON CONFLICT(name) DO UPDATE SET tool_slug = excluded.tool_slug, doc = excluded.doc, source = excluded.source, updated_at = excluded.updated_at
       WHERE (excluded.source = 'import' OR mcp_servers.source = 'seed') AND (mcp_servers.doc <> excluded.doc OR mcp_servers.tool_slug <> excluded.tool_slug)`,
  );
  const params = { name: rec.doc.name, slug: rec.toolSlug, doc: JSON.stringify(rec.doc), source: rec.source, updatedAt: rec.updatedAt ?? new Date().toISOString() };
  return publicWrite(db, () => write.run(params).changes > 0);
}

/** A record with the listing facts the registry answers and feeds add to it. */
export interface ListedServer {
  doc: ServerJson;
  slug: string;
  updatedAt: string;
  category: string | null;
  popularity: number | null;
  toolName: string;
}

interface ListedRow {
  doc: string;
  tool_slug: string;
  updated_at: string;
  category: string | null;
  popularity_score: number | null;
  tool_name: string;
}

const toListed = (r: ListedRow): ListedServer => ({
  doc: JSON.parse(r.doc) as ServerJson,
  slug: r.tool_slug,
  updatedAt: r.updated_at,
  category: r.category,
  popularity: r.popularity_score,
  toolName: r.tool_name,
});

const LISTED_SELECT = `SELECT s.doc, s.tool_slug, s.updated_at, t.category, t.popularity_score, t.name AS tool_name
  FROM mcp_servers s JOIN tools t ON t.slug = s.tool_slug`;

export interface ServerQuery {
  /** Case-insensitive substring of the server name or title. */
  search?: string;
  /** Only servers whose name sorts after this one (cursor paging by name). */
  after?: string;
  updatedSince?: string;
  limit: number;
}

/** One page of servers ordered by name; one row more than the limit tells whether another page follows. */
export function listServers(db: DB, q: ServerQuery): { servers: ListedServer[]; more: boolean } {
  const where: string[] = [];
  const params: Record<string, unknown> = { limit: q.limit + 1 };
  if (q.search) {
    where.push(`(instr(lower(s.name), @search) > 0 OR instr(lower(coalesce(json_extract(s.doc, '$.title'), '')), @search) > 0)`);
    params.search = q.search.toLowerCase();
  }
  if (q.after) {
    where.push('s.name > @after');
    params.after = q.after;
  }
  if (q.updatedSince) {
    where.push('s.updated_at > @updatedSince');
    params.updatedSince = q.updatedSince;
  }
  const sql = `${LISTED_SELECT} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY s.name LIMIT @limit`;
  const rows = (db.prepare(sql).all(params) as ListedRow[]).map(toListed);
  return { servers: rows.slice(0, q.limit), more: rows.length > q.limit };
}

export function getListedServer(db: DB, name: string): ListedServer | null {
  const row = db.prepare(`${LISTED_SELECT} WHERE s.name = ?`).get(name) as ListedRow | undefined;
  return row ? toListed(row) : null;
}

/** Pending submissions carry the server.json an import attached to them (null for the /submit form's). */
export function getSubmissionServer(db: DB, submissionId: number): ServerJson | null {
  const row = db.prepare('SELECT doc FROM submission_servers WHERE submission_id = ?').get(submissionId) as { doc: string } | undefined;
  return row ? (JSON.parse(row.doc) as ServerJson) : null;
}

/** On approval: an imported submission's server.json becomes the new tool's record (its page then shows install
 *  snippets). A submission from the /submit form has none and nothing happens. */
export function attachSubmittedServer(db: DB, submissionId: number, toolSlug: string): void {
  const doc = getSubmissionServer(db, submissionId);
  if (doc) upsertServer(db, { doc, toolSlug, source: 'import' });
}
