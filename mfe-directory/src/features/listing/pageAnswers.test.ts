import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_QUERY, HELD_MATCHES, queryTools, readToolQuery, type ToolQuery } from '@aitools/contracts/toolQuery';
import type { ToolSummary } from '@aitools/contracts/tools';
import { answerAtOnce, askAhead, askPage, forgetPages, likelyNext } from './pageAnswers';

// A catalogue too large to hold: 40 tools mention Notion, 60 notes apps, the rest neither.
const catalogue: ToolSummary[] = Array.from({ length: 1_500 }, (_, i) => ({
  id: i + 1,
  name: `Tool ${i}`,
  slug: `t${i}`,
  description: i < 40 ? `Notion helper ${i}` : i < 100 ? `Notes app ${i}` : 'Something else',
  category: i % 2 ? 'Development' : 'Productivity',
  tags: [],
  pricing: i % 3 ? 'Free' : 'Paid',
  website: 'https://example.test',
  popularityScore: (i * 7) % 10,
}));
/** What the API answers for a query (GET /api/tools/query runs the same function over the whole catalogue). */
const apiAnswer = (q: ToolQuery) => queryTools(catalogue, q);
const q = (over: Partial<ToolQuery>): ToolQuery => ({ ...DEFAULT_QUERY, ...over });

let fetch: ReturnType<typeof vi.fn>;
beforeEach(() => {
  forgetPages();
  fetch = vi.fn(async (input: RequestInfo | URL) => {
    const query = readToolQuery(new URL(String(input), 'https://localhost').searchParams);
    return new Response(JSON.stringify({ success: true, ...apiAnswer(query) }), { status: 200 });
  });
  vi.stubGlobal('fetch', fetch);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const slugs = (p: { tools: ToolSummary[] }) => p.tools.map((t) => t.slug);

describe('answers held in the browser for a large catalogue', () => {
  it('sends every result with a page when there are few, and none when there are many', () => {
    expect(apiAnswer(q({ search: 'no' })).matches).toHaveLength(100);
    expect(apiAnswer(q({ search: 'o' })).matches).toBeUndefined();
    expect(HELD_MATCHES).toBe(100);
  });

  it('answers a narrower query from an answer holding all its results, as the API would, without a request', async () => {
    await askPage(q({ search: 'no' }));
    expect(fetch).toHaveBeenCalledTimes(1);
    for (const narrower of [
      q({ search: 'not' }),
      q({ search: 'Notion' }),
      q({ search: 'no', category: 'Development' }),
      q({ search: 'no', sort: 'alphabetical', page: 2 }),
      q({ search: 'notes', type: 'paid' }),
    ]) {
      const local = answerAtOnce(narrower)!;
      const api = apiAnswer(narrower);
      expect(slugs(local)).toEqual(slugs(api));
      expect({ total: local.total, page: local.page, pages: local.pages, catalogue: local.catalogue }).toEqual({
        total: api.total,
        page: api.page,
        pages: api.pages,
        catalogue: 1_500,
      });
      expect(local.featured).toEqual(api.featured);
      expect(slugs(await askPage(narrower))).toEqual(slugs(api));
    }
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('asks the API for what an answer cannot hold: a wider search, too many results, nothing found', async () => {
    await askPage(q({ search: 'notion' }));
    expect(answerAtOnce(q({ search: 'no' }))).toBeNull();
    await askPage(q({ search: 'e' }));
    expect(answerAtOnce(q({ search: 'else' }))).toBeNull();
    // Nothing matches: the suggestions come from the whole catalogue, so the API answers.
    expect(answerAtOnce(q({ search: 'notionx' }))).toBeNull();
    // Another category than the held one.
    await askPage(q({ search: 'notes', category: 'Development' }));
    expect(answerAtOnce(q({ search: 'notes app 4', category: 'Productivity' }))).toBeNull();
  });

  it('uses an answer for 30 seconds only', async () => {
    let now = 1_000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    await askPage(q({ search: 'no' }));
    now += 29_000;
    expect(answerAtOnce(q({ search: 'not' }))).not.toBeNull();
    now += 2_000;
    expect(answerAtOnce(q({ search: 'not' }))).toBeNull();
  });
});

describe('asking ahead while a visitor types', () => {
  it('reads the likeliest next characters from the results on screen', () => {
    const shown = [
      { ...catalogue[0], name: 'GitHub', description: 'Git hosting' },
      { ...catalogue[1], name: 'GitLab', description: 'Git server, gift' },
      { ...catalogue[2], name: 'Giphy', description: 'GIFs' },
    ];
    expect(likelyNext('gi', shown)).toEqual(['t', 'f', 'p']);
    expect(likelyNext('git', shown)).toEqual([' ', 'h', 'l']);
    expect(likelyNext('', shown)).toEqual([]);
  });

  it('asks for the pages of the likeliest next keystrokes, which then answer at once', async () => {
    const page = await askPage(q({ search: 'e' }));
    expect(page.matches).toBeUndefined();
    askAhead(q({ search: 'e' }), page);
    const ahead = likelyNext('e', page.tools);
    expect(ahead.length).toBeGreaterThan(0);
    expect(fetch).toHaveBeenCalledTimes(1 + ahead.length);
    await Promise.all(ahead.map((c) => askPage(q({ search: `e${c}` }))));
    expect(fetch).toHaveBeenCalledTimes(1 + ahead.length);
    for (const c of ahead)
      expect(slugs(answerAtOnce(q({ search: `e${c}` }))!)).toEqual(slugs(apiAnswer(q({ search: `e${c}` }))));
  });

  it('asks nothing ahead when the answer already holds every result', async () => {
    const page = await askPage(q({ search: 'no' }));
    askAhead(q({ search: 'no' }), page);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
