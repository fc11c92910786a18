import { describe, expect, it, vi } from 'vitest';
import type { ToolSummary } from './tools';
import {
  CATEGORIES,
  cardToolType,
  DEFAULT_QUERY,
  filterToolType,
  normaliseCategory,
  parseTypeFilter,
  queryTools,
  readToolQuery,
  sortTools,
  toolQueryString,
  updateQuery,
  type ToolQuery,
} from './toolQuery';

const tool = (over: Partial<ToolSummary>): ToolSummary => ({
  id: 1,
  name: 'X',
  slug: 'x',
  description: '',
  tags: [],
  website: 'https://x.test',
  ...over,
});

const tools = [
  tool({
    id: 1,
    name: 'ChatGPT',
    slug: 'chatgpt',
    description: 'Conversational assistant',
    category: 'AI Assistants',
    pricing: 'Freemium',
    popularityScore: 9.8,
  }),
  tool({
    id: 2,
    name: 'Pi',
    slug: 'pi',
    description: 'Personal AI companion',
    category: 'AI Tools',
    pricing: 'Free',
    popularityScore: 7,
  }),
  tool({
    id: 3,
    name: 'GitHub MCP Server',
    slug: 'github-mcp',
    description: 'Repos for agents',
    category: 'MCP Servers',
    pricing: 'Free',
    tags: ['mcp-server'],
  }),
  tool({
    id: 4,
    name: 'Time',
    slug: 'time',
    description: 'Time zone conversion',
    category: 'MCP',
    pricing: 'Free',
    popularityScore: 5,
  }),
  tool({
    id: 5,
    name: 'cursor',
    slug: 'cursor',
    description: 'AI code editor',
    category: 'Development',
    pricing: 'Paid, Freemium',
    popularityScore: 9.4,
  }),
  tool({
    id: 6,
    name: 'Bridge',
    slug: 'bridge',
    description: 'Server bridge',
    category: 'Development',
    pricing: 'Enterprise',
    tags: ['mcp-server'],
  }),
];

/** What a query matches, in the catalogue's order (the order of `tools` above). */
function matching(filters: Partial<ToolQuery>): string[] {
  const found = new Set(queryTools(tools, { ...DEFAULT_QUERY, ...filters, size: 96 }).tools);
  return tools.filter((t) => found.has(t)).map((t) => t.slug);
}

/** The directory's filters written plainly: the reference every query must agree with. */
function filteredPlainly(
  list: ToolSummary[],
  { search, category, type }: Pick<ToolQuery, 'search' | 'category' | 'type'>,
): ToolSummary[] {
  const text = search.trim().toLowerCase();
  const typeOk = (t: ToolSummary) =>
    type === 'all' ? true : type === 'paid' ? /paid/i.test(t.pricing ?? '') : filterToolType(t) === 'MCP Servers';
  return list.filter(
    (t) =>
      (!text || [t.name, t.description ?? '', ...(t.mcpTools ?? [])].some((s) => s.toLowerCase().includes(text))) &&
      (category === 'All' || normaliseCategory(t.category) === category) &&
      typeOk(t),
  );
}

describe('the directory query', () => {
  it('keeps everything with no filters', () => {
    expect(matching({})).toHaveLength(tools.length);
  });
  it('searches name or description, case-insensitively', () => {
    expect(matching({ search: 'CHAT' })).toEqual(['chatgpt']);
    expect(matching({ search: 'code editor' })).toEqual(['cursor']);
    expect(matching({ search: '  companion ' })).toEqual(['pi']);
    expect(matching({ search: 'zzz' })).toEqual([]);
  });
  it('matches categories with their aliases (AI Tools is AI Assistants, MCP is MCP Servers)', () => {
    expect(matching({ category: 'AI Assistants' })).toEqual(['chatgpt', 'pi']);
    expect(matching({ category: 'MCP Servers' })).toEqual(['github-mcp', 'time']);
  });
  it('filters by type with the directory reading, and combines all three conditions', () => {
    expect(matching({ type: 'mcp-servers' })).toEqual(['github-mcp', 'time', 'bridge']);
    expect(matching({ type: 'ai-tool' })).toEqual(['chatgpt', 'pi', 'cursor']);
    expect(matching({ search: 'bridge', category: 'Development', type: 'mcp-servers' })).toEqual(['bridge']);
    expect(matching({ search: 'bridge', category: 'Development', type: 'ai-tool' })).toEqual([]);
  });
  it('reads free and paid types from the Explore More links as pricing views', () => {
    expect(matching({ type: 'free' })).toEqual(['chatgpt', 'pi', 'github-mcp', 'time']);
    expect(matching({ type: 'paid' })).toEqual(['cursor']);
  });
  it('filters pricing beside the type with the same readings (free MCP servers)', () => {
    expect(matching({ type: 'mcp-servers', pricing: 'free' })).toEqual(['github-mcp', 'time']);
    expect(matching({ type: 'ai-tool', pricing: 'paid' })).toEqual(['cursor']);
    expect(matching({ pricing: 'paid', search: 'chat' })).toEqual([]);
  });
  it('parses type values from the URL, unknown ones as all', () => {
    expect(parseTypeFilter('mcp-servers')).toBe('mcp-servers');
    expect(parseTypeFilter('bogus')).toBe('all');
    expect(parseTypeFilter(null)).toBe('all');
  });
});

describe('queryTools over a ranked search (the API passes the tools its search found, best first)', () => {
  const all = { category: 'All', type: 'all' as const, search: 'chat', page: 1, size: 24 };
  const found = [tools[2], tools[0], tools[5]];
  const slugs = (q: ToolQuery) => queryTools(tools, q, found).tools.map((t) => t.slug);
  it('keeps the search order for Best match, and only the tools it found', () => {
    expect(slugs({ ...all, sort: 'relevance' })).toEqual(found.map((t) => t.slug));
  });
  it('orders the found tools by another sort when one is chosen', () => {
    const byName = [...found].sort((a, b) => a.name.localeCompare(b.name)).map((t) => t.slug);
    expect(slugs({ ...all, sort: 'alphabetical' })).toEqual(byName);
  });
  it('narrows the ranked tools with the filters, keeping their order', () => {
    const mcpFound = found.filter((t) => filterToolType(t) === 'MCP Servers').map((t) => t.slug);
    expect(mcpFound.length).toBeGreaterThan(0);
    expect(slugs({ ...all, sort: 'relevance', type: 'mcp-servers' })).toEqual(mcpFound);
  });
  it('offers "did you mean" only when the search found nothing', () => {
    expect(queryTools(tools, { ...all, sort: 'relevance', search: 'chatgtp' }, []).suggestions).toContain('ChatGPT');
    expect(queryTools(tools, { ...all, sort: 'relevance' }, found).suggestions).toBeUndefined();
  });
});

describe('Best match', () => {
  it('is the sort while a search is active and none is chosen; without a search it reads as Most Popular', () => {
    expect(readToolQuery(new URLSearchParams('search=meeting notes')).sort).toBe('relevance');
    // The form's default option sends an empty sort (the home page without JavaScript).
    expect(readToolQuery(new URLSearchParams('search=meeting+notes&sort=')).sort).toBe('relevance');
    expect(readToolQuery(new URLSearchParams('sort=')).sort).toBe('popularity');
    expect(readToolQuery(new URLSearchParams('search=meeting&sort=pricing')).sort).toBe('pricing');
    expect(readToolQuery(new URLSearchParams('')).sort).toBe('popularity');
    expect(readToolQuery(new URLSearchParams('sort=relevance')).sort).toBe('popularity');
  });
  it('is left out of the address while searching, and Most Popular is written then', () => {
    expect(toolQueryString({ ...DEFAULT_QUERY, search: 'sql', sort: 'relevance' })).toBe('?search=sql');
    expect(toolQueryString({ ...DEFAULT_QUERY, search: 'sql', sort: 'popularity' })).toBe(
      '?search=sql&sort=popularity',
    );
  });
  it('orders a list without a search as Most Popular', () => {
    expect(sortTools(tools, 'relevance')).toEqual(sortTools(tools, 'popularity'));
  });
});

describe('type derivation (both readings)', () => {
  it('card reading: category first, then tags containing mcp or server, missing tool is an AI Tool', () => {
    expect(cardToolType({ category: 'MCP' })).toBe('MCP Servers');
    expect(cardToolType({ category: 'MCP Servers' })).toBe('MCP Servers');
    expect(cardToolType({ category: 'Development', tags: ['mcp-server'] })).toBe('AI Tool');
    expect(cardToolType({ tags: ['Model Server'] })).toBe('MCP Servers');
    expect(cardToolType({ tags: ['MCP'] })).toBe('MCP Servers');
    expect(cardToolType({ tags: ['chat'] })).toBe('AI Tool');
    expect(cardToolType(null)).toBe('AI Tool');
    expect(cardToolType(undefined)).toBe('AI Tool');
  });
  it('filter reading: MCP category, or the exact tag mcp-server', () => {
    expect(filterToolType({ category: 'MCP' })).toBe('MCP Servers');
    expect(filterToolType({ category: 'Development', tags: ['mcp-server'] })).toBe('MCP Servers');
    expect(filterToolType({ tags: ['server'] })).toBe('AI Tool');
    expect(filterToolType({ tags: ['mcp'] })).toBe('AI Tool');
  });
});

describe('sortTools', () => {
  it('popularity: score descending (missing counts as 5), then name', () => {
    expect(sortTools(tools, 'popularity').map((t) => t.slug)).toEqual([
      'chatgpt',
      'cursor',
      'pi',
      'bridge',
      'github-mcp',
      'time',
    ]);
  });
  it('alphabetical: name A-Z ignoring case', () => {
    expect(sortTools(tools, 'alphabetical').map((t) => t.name)).toEqual([
      'Bridge',
      'ChatGPT',
      'cursor',
      'GitHub MCP Server',
      'Pi',
      'Time',
    ]);
  });
  it('pricing: Free, Freemium, Paid (first value), others, then name', () => {
    expect(sortTools(tools, 'pricing').map((t) => t.slug)).toEqual([
      'github-mcp',
      'pi',
      'time',
      'chatgpt',
      'cursor',
      'bridge',
    ]);
  });
  it('does not change its input', () => {
    const copy = [...tools];
    sortTools(tools, 'alphabetical');
    expect(tools).toEqual(copy);
  });
});

describe('categories', () => {
  it('has the 15 categories with All first', () => {
    expect(CATEGORIES).toHaveLength(15);
    expect(CATEGORIES[0]).toBe('All');
  });
  it('normalises the aliases', () => {
    expect(normaliseCategory('AI Tools')).toBe('AI Assistants');
    expect(normaliseCategory('MCP')).toBe('MCP Servers');
    expect(normaliseCategory('Development')).toBe('Development');
  });
});

describe('the query in the address', () => {
  const href = (q: typeof DEFAULT_QUERY) => `/${toolQueryString(q)}`;
  it('reads every key, ignoring unknown values', () => {
    expect(
      readToolQuery(
        new URLSearchParams('category=Development&type=mcp-servers&search=git&page=3&sort=alphabetical&size=48'),
      ),
    ).toEqual({
      category: 'Development',
      type: 'mcp-servers',
      search: 'git',
      page: 3,
      sort: 'alphabetical',
      size: 48,
    });
    expect(readToolQuery(new URLSearchParams('category=Nope&type=x&page=abc&sort=random&size=7'))).toEqual(
      DEFAULT_QUERY,
    );
  });
  it('caps the search text', () => {
    expect(readToolQuery(new URLSearchParams({ search: 'x'.repeat(5000) })).search).toHaveLength(200);
  });
  it('writes defaults as nothing, and the rest in a stable order', () => {
    expect(href(DEFAULT_QUERY)).toBe('/');
    expect(href({ ...DEFAULT_QUERY, page: 2, search: 'a b', sort: 'relevance', category: 'Design & Creative' })).toBe(
      '/?category=Design+%26+Creative&search=a+b&page=2',
    );
    expect(href({ ...DEFAULT_QUERY, type: 'free', sort: 'pricing', size: 12 })).toBe(
      '/?type=free&sort=pricing&size=12',
    );
  });
  it('lets a sort left at its default follow the search, and keeps a sort chosen', () => {
    const searching = { ...DEFAULT_QUERY, search: 'git', sort: 'relevance' as const };
    expect(href(updateQuery(searching, { search: '' }))).toBe('/');
    expect(updateQuery(DEFAULT_QUERY, { search: 'git' }).sort).toBe('relevance');
    expect(updateQuery({ ...searching, sort: 'alphabetical' }, { search: '' }).sort).toBe('alphabetical');
    expect(updateQuery(searching, { search: '', sort: 'pricing' }).sort).toBe('pricing');
  });
  it('round-trips', () => {
    const q = {
      category: 'MCP Servers',
      type: 'paid' as const,
      search: 'x&y',
      page: 4,
      sort: 'pricing' as const,
      size: 96,
    };
    expect(readToolQuery(new URLSearchParams(toolQueryString(q).slice(1)))).toEqual(q);
  });
});

describe('queryTools', () => {
  const q = (over: Partial<typeof DEFAULT_QUERY>) => ({ ...DEFAULT_QUERY, size: 12, ...over });
  it('answers one sorted page with the totals', () => {
    const page = queryTools(tools, q({ size: 12 }));
    expect(page).toMatchObject({ total: 6, page: 1, pages: 1, catalogue: 6 });
    expect(page.tools.map((t) => t.slug)).toEqual(['chatgpt', 'cursor', 'pi', 'bridge', 'github-mcp', 'time']);
    expect(page.featured[0]).toEqual({ name: 'ChatGPT', slug: 'chatgpt' });
  });
  it('pages through the results and clamps the page to the last one', () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      tool({ id: i, name: `Tool ${String(i).padStart(2, '0')}`, slug: `t${i}` }),
    );
    const second = queryTools(many, q({ page: 2, sort: 'alphabetical' }));
    expect(second.tools.map((t) => t.slug)).toEqual(many.slice(12, 24).map((t) => t.slug));
    expect(queryTools(many, q({ page: 99 }))).toMatchObject({ page: 3, pages: 3 });
    expect(queryTools(many, q({ page: 99 })).tools).toHaveLength(6);
  });
  it('gives what filtering then sorting the whole list gives, for every query, asked in any order', () => {
    const many = Array.from({ length: 60 }, (_, i) =>
      tool({
        id: i,
        name: `${['Chat', 'Code', 'Git'][i % 3]} ${i}`,
        slug: `t${i}`,
        description: i % 4 ? 'An MCP helper' : 'A writer',
        category: i % 5 ? 'Development' : 'MCP Servers',
        pricing: ['Free', 'Paid', 'Freemium, Paid'][i % 3],
        popularityScore: ((i * 37) % 97) / 10,
      }),
    );
    for (const sort of ['pricing', 'alphabetical', 'popularity'] as const)
      for (const search of ['', 'git', ' MCP ', 'zzz'])
        for (const type of ['all', 'mcp-servers', 'paid'] as const) {
          const query = q({ sort, search, type, category: search === 'git' ? 'Development' : 'All', size: 96 });
          const expected = sortTools(filteredPlainly(many, query), sort).map((t) => t.slug);
          expect(queryTools(many, query).tools.map((t) => t.slug)).toEqual(expected);
        }
  });
  it('suggests names only when a search found nothing', () => {
    expect(queryTools(tools, q({ search: 'chatgtp' })).suggestions).toContain('ChatGPT');
    expect(queryTools(tools, q({ search: 'chat' })).suggestions).toBeUndefined();
    expect(queryTools(tools, q({ category: 'Music & Audio' })).suggestions).toBeUndefined();
  });
});

describe('the featured list', () => {
  it('is the most popular tools in popularity order, as a full sort would give', () => {
    const many = Array.from({ length: 300 }, (_, i) =>
      tool({
        id: i,
        name: `T${(i * 7919) % 300}`,
        slug: `t${i}`,
        popularityScore: i % 11 === 0 ? undefined : ((i * 37) % 97) / 10,
      }),
    );
    const expected = sortTools(many, 'popularity')
      .slice(0, 50)
      .map((t) => t.slug);
    expect(queryTools(many, DEFAULT_QUERY).featured.map((t) => t.slug)).toEqual(expected);
  });
});

describe('loading the module', () => {
  it('makes no collator until the first sort by name (its locale data is a long task on a phone)', async () => {
    vi.resetModules();
    const collator = vi.spyOn(Intl, 'Collator');
    try {
      const fresh = await import('./toolQuery');
      expect(collator).not.toHaveBeenCalled();
      const tool = (name: string) => ({ name }) as ToolSummary;
      fresh.sortTools([tool('b'), tool('a')], 'alphabetical');
      expect(collator).toHaveBeenCalledTimes(1);
    } finally {
      collator.mockRestore();
    }
  });
});
