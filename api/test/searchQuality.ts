/**
 * The directory search's labelled set (tests/search/labelled.json) and its measures (docs/testing.md, Search
 * quality): success@5 (a best answer among the first five), nDCG@10 (graded: best 2, acceptable 1) and the share of
 * queries with no result. Used by the quality gate (src/tools/searchQuality.test.ts) and by `pnpm bench`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { REPO_ROOT } from '../src/paths';
import { sqliteHandle, type DB } from '../src/db/connection';
import { syncSearchIndex } from '../src/tools/searchIndex';
import { listToolSummaries } from '../src/tools/repository';
import { wordsOf } from '../src/tools/searchWords';

export interface LabelledQuery {
  query: string;
  otherWords: boolean;
  best: string[];
  acceptable: string[];
  /** In the held-out part: never read while tuning the ranking or the vocabulary (docs/testing.md, Search quality). */
  heldOut: boolean;
}

/** The held-out part: every fourth query of the file (the 4th, 8th, …), so it spans every category as written. */
export const isHeldOut = (index: number) => index % 4 === 3;

export function readLabelledSet(): LabelledQuery[] {
  const file = join(REPO_ROOT, 'tests', 'search', 'labelled.json');
  const { queries } = JSON.parse(readFileSync(file, 'utf8')) as { queries: Omit<LabelledQuery, 'heldOut'>[] };
  return queries.map((q, i) => ({ ...q, heldOut: isHeldOut(i) }));
}

export interface Quality {
  queries: number;
  successAt5: number;
  ndcgAt10: number;
  zeroResults: number;
}

const gain = (q: LabelledQuery, slug: string) => (q.best.includes(slug) ? 2 : q.acceptable.includes(slug) ? 1 : 0);

function ndcgAt10(q: LabelledQuery, slugs: string[]): number {
  const dcg = (gains: number[]) => gains.slice(0, 10).reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0);
  const ideal = dcg([...q.best.map(() => 2), ...q.acceptable.map(() => 1)]);
  return dcg(slugs.map((s) => gain(q, s))) / ideal;
}

/** The measures over queries and the slugs each was answered with, best first. */
export function qualityOf(answers: { q: LabelledQuery; slugs: string[] }[]): Quality {
  const n = answers.length || 1;
  return {
    queries: answers.length,
    successAt5: answers.filter(({ q, slugs }) => slugs.slice(0, 5).some((s) => q.best.includes(s))).length / n,
    ndcgAt10: answers.reduce((sum, { q, slugs }) => sum + ndcgAt10(q, slugs), 0) / n,
    zeroResults: answers.filter(({ slugs }) => slugs.length === 0).length / n,
  };
}

/**
 * The plain baseline: the engine's default ranking of the same words (any of them), with no field weights, no
 * vocabulary, no whole-text rule: what each part of the directory's ranking is measured against.
 */
export async function plainBaseline(db: DB, text: string): Promise<string[]> {
  await syncSearchIndex(db);
  const words = wordsOf(text);
  if (!words.length) return [];
  const slugs = new Map((await listToolSummaries(db)).map((t) => [t.id, t.slug]));
  const handle = sqliteHandle(db);
  const ids = handle
    ? handle
        .prepare<[string], number>('SELECT rowid FROM tool_search WHERE tool_search MATCH ? ORDER BY bm25(tool_search)')
        .pluck()
        .all(words.map((w) => `"${w}"`).join(' OR '))
    : (
        await sql<{
          id: number;
        }>`SELECT id FROM tool_search, to_tsquery('english', ${words.map((w) => `'${w}'`).join(' | ')}) AS q
          WHERE (doc || mcp_text) @@ q ORDER BY ts_rank_cd(doc || mcp_text, q) DESC, id`.execute(db)
      ).rows.map((r) => r.id);
  return ids.map((id) => slugs.get(id)!).filter(Boolean);
}
