/**
 * The directory search's quality on the seed catalogue (docs/testing.md, Search quality): the labelled task queries
 * of tests/search/labelled.json, answered by the search every surface uses, against the plain baseline (the
 * engine's default ranking of the same words: no field weights, no vocabulary). A gate on data, not on time.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../db/connection';
import { openTestDatabase } from '../../test/testDatabase';
import { seed } from '../seed';
import { plainBaseline, qualityOf, readLabelledSet, type Quality } from '../../test/searchQuality';
import { findTools } from './search';

let db: DB;
let ranked: { all: Quality; otherWords: Quality };
let plain: { all: Quality; otherWords: Quality };

async function measure(answer: (text: string) => Promise<string[]>) {
  const answers = [];
  for (const q of readLabelledSet()) answers.push({ q, slugs: await answer(q.query) });
  return { all: qualityOf(answers), otherWords: qualityOf(answers.filter((a) => a.q.otherWords)) };
}

beforeAll(async () => {
  db = await openTestDatabase();
  await seed(db);
  ranked = await measure(async (text) => (await findTools(db, text)).map((t) => t.slug));
  plain = await measure((text) => plainBaseline(db, text));
}, 120_000);

describe('search quality on the labelled task queries', () => {
  it('is a set of 100+ queries, a third of them in other words than the tools use', () => {
    expect(ranked.all.queries).toBeGreaterThanOrEqual(100);
    expect(ranked.otherWords.queries * 3).toBeGreaterThanOrEqual(ranked.all.queries);
  });

  it('leaves no query without results', () => {
    expect(ranked.all.zeroResults).toBe(0);
  });

  it('puts a best answer in the first five for nearly every query, and ranks well (nDCG@10 of 0.8 or more)', () => {
    expect(ranked.all.successAt5).toBeGreaterThanOrEqual(0.92);
    expect(ranked.otherWords.successAt5).toBeGreaterThanOrEqual(0.8);
    expect(ranked.all.ndcgAt10).toBeGreaterThanOrEqual(0.8);
  });

  it('beats the plain baseline on every measure', () => {
    for (const part of ['all', 'otherWords'] as const) {
      expect(ranked[part].successAt5, part).toBeGreaterThan(plain[part].successAt5);
      expect(ranked[part].ndcgAt10, part).toBeGreaterThan(plain[part].ndcgAt10);
      expect(ranked[part].zeroResults, part).toBeLessThan(plain[part].zeroResults);
    }
  });
});
