/**
 * GET /api/tools?search=: the spec's search (name or description contains the text, case-insensitive; for an MCP
 * server also the names of the tools it offers) answered by
 * a trigram index (SQLite FTS5 tools_fts, Postgres pg_trgm), so it stays fast at 10,000 tools; on SQLite, text
 * shorter than a trigram falls back to a scan. When nothing matches, the answer carries "Did you mean" suggestions.
 */
import { sql } from 'kysely';
import { containsText, dialectOf, jsonText, type DB } from '../db/connection';
import { toToolSummary, type ToolSummary } from '@aitools/contracts/tools';
import { didYouMean } from '@aitools/contracts/didYouMean';
import { listToolSummaries, rowToTool } from './repository';

/** An FTS5 string literal: the text as one phrase, double quotes doubled (nothing in it is query syntax). */
const phrase = (text: string) => `"${text.replace(/"/g, '""')}"`;

export async function searchToolSummaries(db: DB, text: string): Promise<ToolSummary[]> {
  const q = text.trim();
  if (!q) return listToolSummaries(db);
  let query = db.selectFrom('tools').select(['id', 'doc']).orderBy('id');
  if (dialectOf(db) === 'sqlite' && [...q].length >= 3) {
    query = query.where('id', 'in', sql<number>`(SELECT rowid FROM tools_fts WHERE tools_fts MATCH ${`{name description} : ${phrase(q)}`})`);
  } else {
    // Postgres answers this from its pg_trgm indexes on the same two expressions.
    query = query.where((eb) => eb.or([containsText('name', q), containsText(jsonText(db, 'doc', 'description'), q)]));
  }
  const found = (await query.execute()).map((r) => toToolSummary(rowToTool(r)));
  // MCP servers also match by the names of the tools they offer (held with the list: a few hundred names in all).
  const lowered = q.toLowerCase();
  const ids = new Set(found.map((t) => t.id));
  const byToolName = (await listToolSummaries(db)).filter((t) => !ids.has(t.id) && t.mcpTools?.some((name) => name.toLowerCase().includes(lowered)));
  return byToolName.length ? [...found, ...byToolName].sort((a, b) => a.id - b.id) : found;
}

export interface SearchResult {
  data: ToolSummary[];
  /** Only when nothing matched: the closest names and tags that would find something. */
  suggestions?: string[];
}

export async function searchTools(db: DB, text: string): Promise<SearchResult> {
  const data = await searchToolSummaries(db, text);
  if (data.length > 0 || !text.trim()) return { data };
  return { data, suggestions: didYouMean(text, await listToolSummaries(db)) };
}
