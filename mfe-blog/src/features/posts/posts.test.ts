import { describe, expect, it } from 'vitest';
import { computeReadTime, displayCategory, normalizePost, parseTags, toSummary } from './posts';
import { FALLBACK_POST, FALLBACK_SLUG, postsOrFallback } from './fallbackPost';

describe('read time', () => {
  it('is ceil(words / 200) "min read"', () => {
    expect(computeReadTime('word '.repeat(200))).toBe('1 min read');
    expect(computeReadTime('word '.repeat(201))).toBe('2 min read');
    expect(computeReadTime('one\ntwo\t three')).toBe('1 min read');
    expect(computeReadTime('w '.repeat(1155))).toBe('6 min read');
  });

  it('defaults to "5 min read" without content', () => {
    expect(computeReadTime('  ')).toBe('5 min read');
  });

  it('prefers read_time, then readTime, then the computed value', () => {
    const base = { slug: 's', title: 'T', content: 'w '.repeat(450) };
    expect(normalizePost({ ...base, read_time: '8 min read', readTime: '2 min read' }).readTime).toBe('8 min read');
    expect(normalizePost({ ...base, readTime: '2 min read' }).readTime).toBe('2 min read');
    expect(normalizePost(base).readTime).toBe('3 min read');
    expect(normalizePost({ slug: 's', title: 'T' }).readTime).toBe('5 min read');
  });
});

describe('normalizePost', () => {
  it('parses tags given as a JSON string; anything unreadable is no tags', () => {
    expect(parseTags('["AI","MCP"]')).toEqual(['AI', 'MCP']);
    expect(parseTags(['a', ' b ', '', 3])).toEqual(['a', 'b']);
    expect(parseTags('{a,b}')).toEqual([]);
    expect(parseTags('"text"')).toEqual([]);
    expect(parseTags(null)).toEqual([]);
  });

  it('applies the defaults and fallbacks of a post', () => {
    const p = normalizePost({
      slug: 'x',
      title: 'X',
      description: 'From description',
      publishedAt: '2026-01-02',
      author: { name: 'Ada' },
      tags: '["t"]',
    });
    expect(p).toMatchObject({
      excerpt: 'From description',
      publishedAt: '2026-01-02',
      author: 'Ada',
      tags: ['t'],
      featured: false,
      category: '',
    });
    expect(p.featuredImage).toMatch(/^\/covers\/x\.png\?v=[0-9a-f]{8}$/);
    expect(normalizePost({ slug: 'x', title: 'X', featured_image: '/own.png' }).featuredImage).toBe('/own.png');
    expect(normalizePost({ slug: 'x', title: 'X' }).author).toBe('AI Tools Team');
    expect(normalizePost({ slug: 'x', title: 'X', author: { name: '' } }).author).toBe('AI Tools Team');
    expect(
      normalizePost({
        slug: 'x',
        title: 'X',
        excerpt: 'E',
        description: 'D',
        published_at: '2026-05-05',
        publishedAt: '2020-01-01',
      }),
    ).toMatchObject({ excerpt: 'E', publishedAt: '2026-05-05' });
  });

  it('drops the body for list summaries', () => {
    expect(toSummary(normalizePost({ slug: 'x', title: 'X', content: 'Body' }))).not.toHaveProperty('content');
  });
});

describe('displayCategory', () => {
  it('falls back to the first tag, then "Technology"', () => {
    expect(displayCategory({ category: 'MCP', tags: ['a'] })).toBe('MCP');
    expect(displayCategory({ category: '', tags: ['First', 'Second'] })).toBe('First');
    expect(displayCategory({ category: '', tags: [] })).toBe('Technology');
  });
});

describe('fallback post', () => {
  it('is the built-in history post', () => {
    expect(FALLBACK_POST).toMatchObject({
      slug: FALLBACK_SLUG,
      category: 'AI History',
      tags: ['AI', 'History', 'Technology', 'Innovation'],
      author: 'AI Tools Team',
      readTime: '8 min read',
      featured: true,
    });
    expect(FALLBACK_SLUG).toBe('how-ai-all-started-history-artificial-intelligence');
  });

  it('is shown only when there are no posts', () => {
    expect(postsOrFallback([], 'fallback')).toEqual(['fallback']);
    expect(postsOrFallback(['a'], 'fallback')).toEqual(['a']);
  });
});
