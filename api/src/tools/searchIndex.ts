/**
 * The directory's full-text index, on each database's own engine (docs/architecture.md, Directory search): SQLite's
 * FTS5 (porter stemming, bm25 with a weight per column) and Postgres' text search (weighted tsvectors, ts_rank_cd).
 * One row per listed tool, kept in step with the held list (repository.ts) at each data version: only tools whose
 * text changed are written again, and tools no longer listed are removed.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { sqliteHandle, type DB } from '../db/connection';
import { dataVersion } from '../content/dataVersion';
import { offeredToolTexts } from '../registry/inspections';
import type { ToolSummary } from '@aitools/contracts/tools';
import { listToolSummaries } from './repository';

/** What a tool is found by, one text per field. A word counts as covered when found in any field but `mcpText`,
 *  which only adds to the score (a server's tool descriptions are long and would cover any words). */
interface SearchDocument {
  id: number;
  name: string;
  tags: string;
  category: string;
  /** An inspected MCP server's tool names and titles. */
  mcp: string;
  /** The first sentence of each of its tools' descriptions. */
  mcpText: string;
  description: string;
}

/** A match: how many of the search's word groups the tool covers, and the engine's score (higher is better). */
export interface EngineMatch {
  id: number;
  matched: number;
  score: number;
}

/** bm25 weights, in column order (name, tags, category, mcp, mcp_text, description, digest): name and tags say
 *  most, then the category, then the MCP tools, and the description least. */
const SQLITE_WEIGHTS = '10.0, 10.0, 4.0, 2.0, 1.5, 1.0, 0.0';
/** The columns a word must be found in to count as covered. */
const COVERING = '{name tags category mcp description}';
/** ts_rank_cd's weights for D (description), C (MCP tools), B (category), A (name, tags). */
const POSTGRES_WEIGHTS = '{0.1, 0.2, 0.4, 1.0}';

export function documentOf(tool: ToolSummary, mcp?: { names: string; descriptions: string }): SearchDocument {
  return {
    id: tool.id,
    name: tool.name,
    tags: tool.tags.join(', '),
    category: tool.category ?? '',
    mcp: mcp?.names ?? '',
    mcpText: mcp?.descriptions ?? '',
    description: tool.description ?? '',
  };
}

const digestOf = (d: SearchDocument) =>
  createHash('sha1')
    .update(JSON.stringify([d.name, d.tags, d.category, d.mcp, d.mcpText, d.description]))
    .digest('base64url');

const synced = new WeakMap<DB, { version: number; done: Promise<void> }>();

/** Brings the index in step with the listed tools of the current data version (once per version and process). */
export async function syncSearchIndex(db: DB): Promise<void> {
  const version = await dataVersion(db);
  let entry = synced.get(db);
  if (entry?.version !== version) {
    entry = { version, done: writeIndex(db) };
    synced.set(db, entry);
    const mine = entry;
    entry.done.catch(() => synced.get(db) === mine && synced.delete(db));
  }
  return entry.done;
}

async function writeIndex(db: DB): Promise<void> {
  const [tools, mcp] = await Promise.all([listToolSummaries(db), offeredToolTexts(db)]);
  const wanted = new Map(
    tools.map((t) => {
      const d = documentOf(t, mcp.get(t.slug));
      return [d.id, { d, digest: digestOf(d) }];
    }),
  );
  const handle = sqliteHandle(db);
  if (handle) {
    const stored = handle
      .prepare<[], { id: number; digest: string }>('SELECT rowid AS id, digest FROM tool_search')
      .all();
    const drop = handle.prepare<[number]>('DELETE FROM tool_search WHERE rowid = ?');
    const add = handle.prepare(
      `INSERT INTO tool_search (rowid, name, tags, category, mcp, mcp_text, description, digest)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    handle.transaction(() => {
      const kept = new Set<number>();
      for (const row of stored)
        if (wanted.get(row.id)?.digest === row.digest) kept.add(row.id);
        else drop.run(row.id);
      for (const { d, digest } of wanted.values())
        if (!kept.has(d.id)) add.run(d.id, d.name, d.tags, d.category, d.mcp, d.mcpText, d.description, digest);
    })();
    return;
  }
  const { rows: stored } = await sql<{ id: number; digest: string }>`SELECT id, digest FROM tool_search`.execute(db);
  const gone = stored.filter((r) => !wanted.has(r.id)).map((r) => r.id);
  const current = new Map(stored.map((r) => [r.id, r.digest]));
  const changed = [...wanted.values()].filter(({ d, digest }) => current.get(d.id) !== digest);
  if (gone.length) await sql`DELETE FROM tool_search WHERE id = ANY(${gone}::int[])`.execute(db);
  for (let i = 0; i < changed.length; i += 1000) {
    const batch = changed.slice(i, i + 1000);
    const column = (field: keyof SearchDocument) => batch.map(({ d }) => d[field]);
    await sql`INSERT INTO tool_search (id, digest, doc, mcp_text)
      SELECT id, digest,
        setweight(to_tsvector('english', name), 'A') || setweight(to_tsvector('english', tags), 'A') ||
        setweight(to_tsvector('english', category), 'B') || setweight(to_tsvector('english', mcp), 'C') ||
        setweight(to_tsvector('english', description), 'D'),
        setweight(to_tsvector('english', mcp_text), 'C')
      FROM unnest(${column('id')}::int[], ${batch.map((x) => x.digest)}::text[], ${column('name')}::text[],
        ${column('tags')}::text[], ${column('category')}::text[], ${column('mcp')}::text[],
        ${column('mcpText')}::text[], ${column('description')}::text[])
        AS t(id, digest, name, tags, category, mcp, mcp_text, description)
      ON CONFLICT (id) DO UPDATE SET digest = excluded.digest, doc = excluded.doc, mcp_text = excluded.mcp_text`.execute(
      db,
    );
  }
}

/**
 * The tools matching any group of words (a group: a typed word and its other words; the last typed word also as a
 * prefix, since it may be half typed), with how many groups each covers and the engine's score. Words are letters
 * and digits only (searchWords.ts), so each is quoted as a plain term for the engine.
 */
export async function engineMatches(db: DB, groups: string[][], prefixLast: boolean): Promise<EngineMatch[]> {
  if (!groups.length) return [];
  await syncSearchIndex(db);
  const isPrefix = (g: number, w: number) => prefixLast && g === groups.length - 1 && w === 0;
  const h = sqliteHandle(db);
  if (h) {
    const expr = groups.map((g, gi) => `(${g.map((w, wi) => `"${w}"${isPrefix(gi, wi) ? '*' : ''}`).join(' OR ')})`);
    const counts = new Map<number, number>();
    const covering = h.prepare<[string], number>('SELECT rowid FROM tool_search WHERE tool_search MATCH ?').pluck();
    for (const e of expr)
      for (const id of covering.all(`${COVERING} : ${e}`)) counts.set(id, (counts.get(id) ?? 0) + 1);
    const scored = h
      .prepare<[string], { id: number; score: number }>(
        `SELECT rowid AS id, -bm25(tool_search, ${SQLITE_WEIGHTS}) AS score FROM tool_search WHERE tool_search MATCH ?`,
      )
      .all(expr.join(' OR '));
    return scored.map((r) => ({ id: r.id, score: r.score, matched: counts.get(r.id) ?? 0 }));
  }
  const queries = groups.map((g, gi) => g.map((w, wi) => `'${w}'${isPrefix(gi, wi) ? ':*' : ''}`).join(' | '));
  // Each query is parsed once (in FROM), not once per row.
  const parsed = sql.join(
    queries.map((q, i) => sql`to_tsquery('english', ${q}) AS ${sql.id(`g${i}`)}`),
    sql`, `,
  );
  const covered = sql.join(
    queries.map((_, i) => sql`(doc @@ ${sql.id(`g${i}`)})::int`),
    sql` + `,
  );
  const any = queries.map((q) => `(${q})`).join(' | ');
  const { rows } = await sql<{ id: number; matched: number; score: number }>`
    SELECT id, ${covered} AS matched,
      ts_rank_cd(${POSTGRES_WEIGHTS}::float4[], doc, q) + ts_rank_cd(${POSTGRES_WEIGHTS}::float4[], mcp_text, q) AS score
    FROM tool_search, to_tsquery('english', ${any}) AS q, ${parsed}
    WHERE doc @@ q OR mcp_text @@ q`.execute(db);
  return rows;
}
