import { describe, expect, it } from 'vitest';
import {
  BLOG_CATEGORIES,
  filterPosts,
  matchesCategory,
  matchesSearch,
  pageCount,
  pageHref,
  pageSlice,
  readPage,
} from './listing';

const post = (over: Partial<{ title: string; excerpt: string; category: string; tags: string[] }> = {}) => ({
  title: 'Title',
  excerpt: 'Excerpt',
  category: '',
  tags: [],
  ...over,
});
const numbers = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('paging', () => {
  it('counts pages as ceil((n - 1) / 12), at least 1', () => {
    expect([0, 1, 2, 13, 14, 25, 26, 37, 16].map(pageCount)).toEqual([1, 1, 1, 1, 2, 2, 3, 3, 2]);
  });

  it('puts the featured post and the next 12 on page 1', () => {
    const slice = pageSlice(numbers(30), 1);
    expect(slice.featured).toBe(0);
    expect(slice.posts).toEqual(numbers(13).slice(1));
  });

  it('puts 12 posts from offset 1 + 12 x (page - 1) on later pages, without a featured post', () => {
    expect(pageSlice(numbers(30), 2)).toEqual({ featured: null, posts: numbers(25).slice(13) });
    expect(pageSlice(numbers(30), 3)).toEqual({ featured: null, posts: [25, 26, 27, 28, 29] });
    expect(pageSlice(numbers(16), 2).posts).toEqual([13, 14, 15]);
  });

  it('has nothing to show for an empty list', () => {
    expect(pageSlice([], 1)).toEqual({ featured: null, posts: [] });
  });

  it('reads ?page=N, clamped to 1..pages; anything else is page 1', () => {
    expect(readPage(null, 3)).toBe(1);
    expect(readPage('2', 3)).toBe(2);
    expect(readPage('9', 3)).toBe(3);
    expect(readPage('0', 3)).toBe(1);
    for (const bad of ['-1', 'abc', '2.5', '', ' 2']) expect(readPage(bad, 3), bad).toBe(1);
  });

  it('addresses page 1 without a parameter', () => {
    expect(pageHref(1)).toBe('/blog');
    expect(pageHref(2)).toBe('/blog?page=2');
  });
});

describe('search and category', () => {
  it('searches title and excerpt case-insensitively, ignoring surrounding spaces', () => {
    expect(matchesSearch(post({ title: 'Model Context Protocol' }), '  context ')).toBe(true);
    expect(matchesSearch(post({ excerpt: 'All about TOKENS' }), 'tokens')).toBe(true);
    expect(matchesSearch(post({ tags: ['secret'] }), 'secret')).toBe(false);
    expect(matchesSearch(post(), '')).toBe(true);
  });

  it('matches a chip to the category or any tag; All matches everything', () => {
    expect(matchesCategory(post({ category: 'MCP' }), 'MCP')).toBe(true);
    expect(matchesCategory(post({ category: 'Tutorial', tags: ['MCP', 'Claude'] }), 'MCP')).toBe(true);
    expect(matchesCategory(post({ category: 'AI Basics', tags: ['ai tutorial'] }), 'AI Tutorial')).toBe(true);
    expect(matchesCategory(post({ category: 'AI Basics', tags: ['Claude'] }), 'MCP')).toBe(false);
    expect(matchesCategory(post({ category: 'MCP Servers' }), 'MCP')).toBe(false);
    expect(matchesCategory(post(), 'All')).toBe(true);
  });

  it('combines both filters', () => {
    const posts = [
      post({ title: 'A guide', category: 'MCP' }),
      post({ title: 'A guide', category: 'AI Legal' }),
      post({ title: 'Other', category: 'MCP' }),
    ];
    expect(filterPosts(posts, 'guide', 'MCP')).toEqual([posts[0]]);
    expect(filterPosts(posts, '', 'All')).toEqual(posts);
  });

  it('offers the 19 chips, All first', () => {
    expect(BLOG_CATEGORIES).toHaveLength(19);
    expect(BLOG_CATEGORIES[0]).toBe('All');
    expect(BLOG_CATEGORIES.at(-1)).toBe('Tutorial');
  });
});
