import { describe, expect, it } from 'vitest';
import { DEFAULT_QUERY, homeHref, readHomeQuery } from './homeQuery';

describe('the home address', () => {
  it('reads every key, ignoring unknown values', () => {
    expect(readHomeQuery(new URLSearchParams('category=Development&type=mcp-servers&search=git&page=3&sort=alphabetical&size=48'))).toEqual({
      category: 'Development',
      type: 'mcp-servers',
      search: 'git',
      page: 3,
      sort: 'alphabetical',
      size: 48,
    });
    expect(readHomeQuery(new URLSearchParams('category=Nope&type=x&page=abc&sort=random&size=7'))).toEqual(DEFAULT_QUERY);
  });

  it('writes defaults as nothing, and the rest in a stable order', () => {
    expect(homeHref(DEFAULT_QUERY)).toBe('/');
    expect(homeHref({ ...DEFAULT_QUERY, page: 2, search: 'a b', category: 'Design & Creative' })).toBe('/?category=Design+%26+Creative&search=a+b&page=2');
    expect(homeHref({ ...DEFAULT_QUERY, type: 'free', sort: 'pricing', size: 12 })).toBe('/?type=free&sort=pricing&size=12');
  });

  it('round-trips', () => {
    const q = { category: 'MCP Servers', type: 'paid' as const, search: 'x&y', page: 4, sort: 'pricing' as const, size: 96 };
    expect(readHomeQuery(new URLSearchParams(homeHref(q).slice(2)))).toEqual(q);
  });
});
