/**
 * The directory search's labelled set (tests/search/labelled.json) and its measures (docs/testing.md, Search
 * quality): success@5 (a best answer among the first five), nDCG@10 (graded: best 2, acceptable 1) and the share of
 * queries with no result. Used by the quality gate (src/tools/searchQuality.test.ts) and by `pnpm bench`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../src/paths';

export interface LabelledQuery {
  query: string;
  otherWords: boolean;
  best: string[];
  acceptable: string[];
}

export function readLabelledSet(): LabelledQuery[] {
  const file = join(REPO_ROOT, 'tests', 'search', 'labelled.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { queries: LabelledQuery[] }).queries;
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
