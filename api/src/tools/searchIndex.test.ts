/**
 * The bounded ranking (boundedPage.ts) answers the same page and count as ranking every match, on a
 * generated catalogue large enough that its lists are cut (both shapes of api/test/generatedCatalogue.ts), for the
 * labelled task queries and words the generated tools share, with filters and deeper pages. On SQLite every page is
 * ranked exactly (the check holds trivially there); with TEST_DATABASE_URL, on Postgres, where the bound applies.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction, type DB } from '../db/connection';
import { generateTools } from '../../test/generatedCatalogue';
import { readLabelledSet } from '../../test/searchQuality';
import { onPostgres, openTestDatabase } from '../../test/testDatabase';
import { seed } from '../seed';
import { listToolSummaries, upsertTool } from './repository';
import { indexSearch } from './search';
import { BOUNDED, boundedOutcomes } from './boundedPage';
import { rankedIds, type IndexFilters } from './searchIndex';

let db: DB;
const CATEGORIES = ['Productivity', 'Design & Creative', 'Writing & Content'];

beforeAll(async () => {
  db = await openTestDatabase();
  await seed(db);
  const realTexts = (await listToolSummaries(db)).map((t) => `${t.name} ${t.description ?? ''}`);
  const hard = generateTools(700, CATEGORIES);
  const registry = generateTools(900, CATEGORIES, { shape: 'registry', realTexts, seed: 7 }).map((t) => ({
    ...t,
    slug: t.slug.replace('bench-tool-', 'registry-tool-'),
  }));
  await inTransaction(db, async (trx) => {
    for (const t of [...hard, ...registry]) await upsertTool(trx, t);
  });
}, 240_000);

afterAll(() => db?.destroy());

const FILTERS: IndexFilters[] = [
  { category: 'All', type: 'all' },
  { category: 'All', type: 'mcp-servers' },
  { category: 'Productivity', type: 'all', pricing: 'free' },
];
const WINDOWS = [
  { limit: 5, offset: 0 },
  { limit: 10, offset: 20 },
];
/** Words the hard shape's tools share (a fifth to all of them), half-typed words, the whole-text rule, and the
 *  vocabulary's phrases (read through one of their stems), whole and half-typed. */
const SHARED = ['code', 'workflows support', 'image video agent', 'finance workflows', 'cod', 'github postg', 'mcp'];
const PHRASES = ['speech to text', 'text to speech ', 'file system workflows', 'self hosted', 'natural language'];

describe('the bounded ranking', () => {
  it('answers the exact ranking’s page and count, whatever its limits', async () => {
    const texts = [...readLabelledSet().map((q) => q.query), ...SHARED, ...PHRASES, 'zzqx nothing'];
    const before = { ...boundedOutcomes };
    const defaults = { ...BOUNDED };
    // Lists read from a page's depth and a small set of tools covering many groups (the bound on impacts proves the
    // page), the tools read ranked a few at a time (each chunk raises the last row the next ones' bounds must reach),
    // then the defaults.
    const settings = [{ firstDepth: 1, maxCovering: 0, chunk: 8 }, { firstDepth: 1, maxCovering: 50 }, defaults];
    try {
      for (const text of texts)
        for (const filters of FILTERS) {
          const search = indexSearch(text);
          const all = await rankedIds(db, search, filters);
          for (const setting of settings)
            for (const window of WINDOWS) {
              Object.assign(BOUNDED, setting);
              const page = await rankedIds(db, search, filters, window);
              const expected = all.ids.slice(window.offset, window.offset + window.limit);
              expect({ text, filters, setting, window, ...page }).toEqual({
                text,
                filters,
                setting,
                window,
                ids: expected,
                // A page past the last carries no count on SQLite (search.ts asks for the first page).
                total: expected.length || onPostgres ? all.ids.length : 0,
              });
            }
        }
    } finally {
      Object.assign(BOUNDED, defaults);
    }
    if (onPostgres) {
      // Most pages are proven from the lists read, so the comparison above tested the bound, not the fallback.
      const proven = boundedOutcomes.proven - before.proven;
      const exact = boundedOutcomes.exact - before.exact;
      expect(proven).toBeGreaterThan(exact * 4);
    }
  }, 600_000);

  it.runIf(onPostgres)('vacuums and analyzes the index after a sync that rewrote much of it', async () => {
    await rankedIds(db, indexSearch('code'), FILTERS[0]);
    const { rows } = await sql<{ relname: string; vacuumed: boolean; analyzed: boolean }>`SELECT relname,
        last_vacuum IS NOT NULL AS vacuumed, last_analyze IS NOT NULL AS analyzed
      FROM pg_stat_user_tables WHERE schemaname = current_schema() AND relname LIKE 'tool_search%' ORDER BY relname`.execute(
      db,
    );
    expect(rows).toEqual(
      ['tool_search', 'tool_search_terms', 'tool_search_words'].map((relname) => ({
        relname,
        vacuumed: true,
        analyzed: true,
      })),
    );
  });
});

describe('the generated catalogues', () => {
  it('do not repeat themselves: 10,000 registry-shaped tools have as many different descriptions', () => {
    const realTexts = ['search the web', 'read files', 'query a database'];
    const tools = generateTools(10_000, CATEGORIES, { shape: 'registry', realTexts });
    const descriptions = new Set(tools.map((t) => t.description));
    expect(descriptions.size).toBeGreaterThan(9_900);
  });
});
