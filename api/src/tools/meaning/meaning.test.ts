/**
 * The meaning's guess on the database's engine (docs/product.md, Directory search): the catalogue's codes kept in step
 * with the tools, the guess placed fifth among the tools the filters keep, and a search answered by its words when
 * the meaning thread fails.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { Piscina } from 'piscina';
import type { DB } from '../../db/connection';
import { dataVersion, publicWrite } from '../../content/dataVersion';
import { openTestDatabase } from '../../../test/testDatabase';
import { seed } from '../../seed';
import { readToolQuery } from '@aitools/contracts/toolQuery';
import { listToolSummaries, upsertTool } from '../repository';
import { findTools, searchTools } from '../search';
import { rankedIds, startMeaning, syncSearchIndex, type IndexFilters } from '../searchIndex';
import { indexSearch } from '../search';
import { readLabelledSet } from '../../../test/searchQuality';
import { fillCodes, GUESS_BUDGET_MS, MEANING_LIMITS } from './meaning';

let db: DB;
const failures: unknown[] = [];

beforeAll(async () => {
  db = await openTestDatabase();
  await seed(db);
  startMeaning((err) => failures.push(err));
  await syncSearchIndex(db);
  await fillCodes(db);
}, 120_000);

afterEach(() => vi.restoreAllMocks());

const coded = async () =>
  (await sql<{ id: number }>`SELECT id FROM tool_codes ORDER BY id`.execute(db)).rows.map((r) => r.id);
const slugs = async (text: string) => (await findTools(db, text)).map((t) => t.slug);

describe('the meaning guess', () => {
  it('codes every listed tool, and only those', async () => {
    const ids = (await listToolSummaries(db)).map((t) => t.id).sort((a, b) => a - b);
    expect(await coded()).toEqual(ids);
  });

  it('places fifth a tool described in other words than the typed ones', async () => {
    // No word of "a smarter google" is in an answer engine's texts; the words find Google's own servers.
    const found = await slugs('a smarter google');
    expect(found.slice(0, 4)).not.toContain('perplexity');
    expect(found[4]).toBe('perplexity');
  });

  it('gives no guess in a catalogue larger than its scan may read, and codes none of it', async () => {
    const limit = MEANING_LIMITS.maxCatalogue;
    MEANING_LIMITS.maxCatalogue = 100;
    try {
      expect((await slugs('the smartest google'))[4]).not.toBe('perplexity');
      await upsertTool(db, { slug: 'zyxbig', name: 'Zyxbig', description: 'Answers', website: 'https://z.example' });
      await syncSearchIndex(db);
      await fillCodes(db);
      const id = (await listToolSummaries(db)).find((t) => t.slug === 'zyxbig')!.id;
      expect(await coded()).not.toContain(id);
    } finally {
      MEANING_LIMITS.maxCatalogue = limit;
      await publicWrite(db, async (trx) => {
        await trx.deleteFrom('tools').where('slug', '=', 'zyxbig').execute();
        return true;
      });
    }
    expect((await slugs('the smartest google'))[4]).toBe('perplexity');
  });

  it('gives no guess to a search of one word, or to one the words find nothing for', async () => {
    expect((await slugs('upscaler')).length).toBe((await slugs('upscaler ')).length);
    expect(await slugs('qwertyuiop asdfghjkl')).toEqual([]);
  });

  it('keeps to the filters, and pages the same list', async () => {
    const q = readToolQuery(new URLSearchParams({ search: 'stop my assistant using outdated apis' }));
    const aiTools = await searchTools(db, { ...q, type: 'ai-tool', size: 5, page: 1 });
    expect(aiTools.tools.length).toBe(5);
    expect(aiTools.tools.every((t) => !t.slug.endsWith('-mcp-server'))).toBe(true);
    const all = await findTools(db, q.search);
    const pages = [];
    for (let page = 1; page <= 4; page++) pages.push(...(await searchTools(db, { ...q, size: 3, page })).tools);
    expect(pages.map((t) => t.slug)).toEqual(all.slice(0, 12).map((t) => t.slug));
  });

  it('places it in every window of the ranking as in the whole list, whatever the filters', async () => {
    const filters: IndexFilters[] = [
      { category: 'All', type: 'all' },
      { category: 'All', type: 'mcp-servers' },
      { category: 'All', type: 'ai-tool', pricing: 'free' },
      { category: 'Image Generation', type: 'all' },
    ];
    for (const q of readLabelledSet().filter((_, i) => i % 6 === 0))
      for (const f of filters) {
        const search = indexSearch(q.query);
        const all = await rankedIds(db, search, f);
        for (const limit of [1, 3, 5, 24])
          for (let offset = 0; offset <= Math.min(all.ids.length + 1, 30); offset += limit === 1 ? 1 : 2) {
            const page = await rankedIds(db, search, f, { offset, limit });
            const want = all.ids.slice(offset, offset + limit);
            expect({ q: q.query, f, offset, limit, ids: page.ids }).toEqual({
              q: q.query,
              f,
              offset,
              limit,
              ids: want,
            });
            if (want.length) expect(page.total).toBe(all.ids.length);
          }
      }
  }, 300_000);

  it('codes a tool again when its text changes, and forgets one no longer listed', async () => {
    const describedAs = (description: string) =>
      upsertTool(db, { slug: 'zyxomatic', name: 'Zyxomatic', description, website: 'https://z.example' });
    await describedAs('An answer engine that searches the web and cites its sources');
    await syncSearchIndex(db);
    await fillCodes(db);
    const id = (await listToolSummaries(db)).find((t) => t.slug === 'zyxomatic')!.id;
    const code = async () =>
      (await sql<{ digest: string }>`SELECT digest FROM tool_codes WHERE id = ${id}`.execute(db)).rows[0]?.digest;
    const first = await code();
    expect(first).toBeTruthy();
    await describedAs('Photo filters');
    await syncSearchIndex(db);
    const before = await dataVersion(db);
    await fillCodes(db);
    expect(await code()).not.toBe(first);
    // New codes change answers: the cached ones go with the data version.
    expect(await dataVersion(db)).toBeGreaterThan(before);
    await publicWrite(db, async (trx) => {
      await trx.deleteFrom('tools').where('slug', '=', 'zyxomatic').execute();
      return true;
    });
    await syncSearchIndex(db);
    await fillCodes(db);
    expect(await code()).toBeUndefined();
  });

  it('answers by the words alone past its budget, and uses the code once the thread has made it', async () => {
    const real = Piscina.prototype.run;
    let finish!: () => void;
    const run = vi.spyOn(Piscina.prototype, 'run').mockImplementation(function (this: Piscina, ...args) {
      const made = real.apply(this, args);
      return new Promise((resolve) => (finish = () => resolve(made)));
    });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const searching = slugs('a sharper google');
      await vi.waitFor(() => expect(finish).toBeTypeOf('function'));
      await vi.advanceTimersByTimeAsync(GUESS_BUDGET_MS);
      const words = await searching;
      expect(failures.at(-1)).toEqual(new Error(`no code within ${GUESS_BUDGET_MS} ms`));
      expect(words.length).toBeGreaterThan(0);
      vi.useRealTimers();
      finish();
      // The code the thread went on to make serves the next search of that text, which waits for nothing.
      const failed = failures.length;
      await vi.waitFor(async () => {
        await slugs('A sharper  Google');
        expect(failures.length).toBe(failed);
      });
      expect(run).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers by the words alone, and says so, when the meaning thread fails', async () => {
    vi.spyOn(Piscina.prototype, 'run').mockRejectedValue(new Error('the meaning thread died'));
    const words = await slugs('smarter google');
    expect(words.length).toBeGreaterThan(4);
    expect(words.slice(0, 5)).not.toContain('perplexity');
    expect(failures.at(-1)).toEqual(new Error('the meaning thread died'));
    vi.restoreAllMocks();
    const guessed = await slugs('smarter google');
    expect(guessed.slice(0, 4)).toEqual(words.slice(0, 4));
    expect(guessed[4]).not.toBe(words[4]);
  });
});
