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
import { lexemeQuery, POSTGRES_SCORE, rankedIds, type IndexFilters } from './searchIndex';

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
                // A page past the last may carry no count on SQLite (search.ts then asks for the first page).
                total: expected.length || onPostgres || page.total ? all.ids.length : 0,
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

describe('ties on Postgres', () => {
  it.runIf(onPostgres)(
    'store a word’s impact as, to the bit, the score of a tool that matches that word alone',
    async () => {
      await rankedIds(db, indexSearch('code'), FILTERS[0]);
      // Each index word of every tool, asked beside words no tool has (a search's query is an OR of many); the
      // word's own query is one operand that finds its tool (not a word parsed again into others).
      const { rows } = await sql<{ n: string; differ: string; misread: string }>`SELECT count(*) AS n,
        count(*) FILTER (WHERE impact <> ${POSTGRES_SCORE}) AS differ,
        count(*) FILTER (WHERE numnode(one) <> 1 OR NOT (doc @@ one OR mcp_text @@ one)) AS misread
      FROM tool_search_terms AS t JOIN tool_search AS s ON s.id = t.tool,
        LATERAL (SELECT ${lexemeQuery(sql`t.word`)} AS one) AS o,
        LATERAL (SELECT one || 'zzqx'::tsquery || 'qqzx:*'::tsquery AS q) AS w`.execute(db);
      expect(Number(rows[0].n)).toBeGreaterThan(10_000);
      expect({ differ: Number(rows[0].differ), misread: Number(rows[0].misread) }).toEqual({ differ: 0, misread: 0 });
      // A lexeme with the tsquery syntax's characters is still one operand, that very lexeme.
      const hostile = ["o'reilly", 'back\\slash', 'a:b', 'x&y|z', '(!<->)', 'two words'];
      const { rows: read } = await sql<{ word: string; one: boolean }>`SELECT word,
          numnode(${lexemeQuery(sql`word`)}) = 1 AND array_to_tsvector(ARRAY[word]) @@ ${lexemeQuery(sql`word`)} AS one
        FROM unnest(${hostile}::text[]) AS word`.execute(db);
      expect(read).toEqual(hostile.map((word) => ({ word, one: true })));
    },
  );

  it.runIf(onPostgres)('prove a page whose last row ties the one list left open, without reading on', async () => {
    // 300 tools of one description, so one impact for its words, and popularity ties broken by id; then 10 of
    // another word with the same impact, the least popularity and later ids.
    const [template] = generateTools(1, CATEGORIES);
    const tool = (i: number, animal: string, category: string, popularityScore: number) => ({
      ...template,
      slug: `tie-tool-${i}`,
      name: `Marsupial tally ${i}`,
      description: `Counts the ${animal} seen in outback photos.`,
      category,
      tags: [],
      popularityScore,
    });
    await inTransaction(db, async (trx) => {
      for (let i = 0; i < 300; i++) await upsertTool(trx, tool(i, 'quokkas', CATEGORIES[1 + (i % 2)], i % 7));
      for (let i = 300; i < 310; i++) await upsertTool(trx, tool(i, 'wombats', CATEGORIES[1], 0));
    });
    const search = indexSearch('quokkas');
    const all = await rankedIds(db, search, FILTERS[0]);
    expect(all.ids).toHaveLength(300);
    const defaults = { ...BOUNDED };
    // Lists read from the page's depth (20 rows for 5), and no further than 80 rows before the exact ranking.
    Object.assign(BOUNDED, { firstDepth: 4, maxDepth: 80, maxCovering: 0 });
    try {
      for (const window of [...WINDOWS, { limit: 5, offset: 12 }]) {
        const before = { ...boundedOutcomes };
        const page = await rankedIds(db, search, FILTERS[0], window);
        expect(page).toEqual({ ids: all.ids.slice(window.offset, window.offset + window.limit), total: 300 });
        expect(boundedOutcomes.proven - before.proven).toBe(1);
      }
      // Filtered, the page's last row can be a tool of the list read to its end that sorts after the open list's
      // last row read: a tool left in that list may sort before it, so the page is not proven there.
      Object.assign(BOUNDED, { firstDepth: 1, maxDepth: 4096 });
      const filters: IndexFilters = { category: CATEGORIES[1], type: 'all' };
      const both = indexSearch('quokkas wombats');
      const expected = await rankedIds(db, both, filters);
      expect(expected.ids.length).toBe(160);
      expect(await rankedIds(db, both, filters, { limit: 20, offset: 0 })).toEqual({
        ids: expected.ids.slice(0, 20),
        total: 160,
      });
    } finally {
      Object.assign(BOUNDED, defaults);
    }
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
