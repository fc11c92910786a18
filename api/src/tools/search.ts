/**
 * GET /api/tools?search=: the spec's search (name or description contains the text, case-insensitive) answered by
 * the SQLite FTS5 trigram index (tools_fts), so it stays fast at 10,000 tools; text shorter than a trigram falls
 * back to a scan. When nothing matches, the answer carries "Did you mean" suggestions.
 */
import type { DB } from '../db/connection';
import { toToolSummary, type Tool, type ToolSummary } from '../contracts/tools';
import { didYouMean } from '../contracts/didYouMean';
import { listToolSummaries } from './repository';

/** An FTS5 string literal: the text as one phrase, double quotes doubled (nothing in it is query syntax). */
const phrase = (text: string) => `"${text.replace(/"/g, '""')}"`;

export function searchToolSummaries(db: DB, text: string): ToolSummary[] {
  const q = text.trim();
  if (!q) return listToolSummaries(db);
  const rows = (
    [...q].length >= 3
      ? db
          .prepare(`SELECT id, doc FROM tools WHERE id IN (SELECT rowid FROM tools_fts WHERE tools_fts MATCH ?) ORDER BY id`)
          .all(`{name description} : ${phrase(q)}`)
      : db
          .prepare(`SELECT id, doc FROM tools WHERE instr(lower(name), @q) > 0 OR instr(lower(coalesce(json_extract(doc, '$.description'), '')), @q) > 0 ORDER BY id`)
          .all({ q: q.toLowerCase() })
  ) as { id: number; doc: string }[];
  return rows.map((r) => toToolSummary({ ...(JSON.parse(r.doc) as Omit<Tool, 'id'>), id: r.id }));
}

export interface SearchResult {
  data: ToolSummary[];
  /** Only when nothing matched: the closest names and tags that would find something. */
  suggestions?: string[];
}

export function searchTools(db: DB, text: string): SearchResult {
  const data = searchToolSummaries(db, text);
  if (data.length > 0 || !text.trim()) return { data };
  return { data, suggestions: didYouMean(text, listToolSummaries(db)) };
}
