import { describe, expect, it } from 'vitest';
import { listHead, postHead } from './head';
import { FALLBACK_POST } from '../features/posts/fallbackPost';
import { toSummary } from '../features/posts/posts';

const origin = 'http://example.test';
const posts = Array.from({ length: 14 }, (_, i) => ({
  ...toSummary(FALLBACK_POST),
  slug: `p${i}`,
  title: `Post ${i}`,
}));

/** 26 posts: 3 pages. */
const more = Array.from({ length: 26 }, (_, i) => ({ ...toSummary(FALLBACK_POST), slug: `m${i}`, title: `More ${i}` }));

describe('listHead', () => {
  it('links page 1 to the next page only, with the Blog data of the first 10 posts', () => {
    const head = listHead({ origin, posts, params: new URLSearchParams() });
    expect(head.links).toEqual([{ rel: 'next', href: '/blog?page=2' }]);
    expect(head.canonical).toBe('https://example.test/blog');
    const ld = head.jsonLd as { '@type': string; blogPost: { headline: string; url: string; datePublished: string }[] };
    expect(ld['@type']).toBe('Blog');
    expect(ld.blogPost).toHaveLength(10);
    expect(ld.blogPost[0]).toMatchObject({
      headline: 'Post 0',
      url: 'https://example.test/blog/p0',
      datePublished: '2026-03-04',
    });
    expect(head.meta).toContainEqual({ property: 'og:type', content: 'website' });
  });

  it('links a middle page both ways, page 2 back to /blog without a parameter', () => {
    expect(listHead({ origin, posts: more, params: new URLSearchParams('page=2') }).links).toEqual([
      { rel: 'prev', href: '/blog' },
      { rel: 'next', href: '/blog?page=3' },
    ]);
    const last = listHead({ origin, posts: more, params: new URLSearchParams('page=3') });
    expect(last.links).toEqual([{ rel: 'prev', href: '/blog?page=2' }]);
    expect(last.canonical).toBe('https://example.test/blog?page=3');
    expect(last.title).toContain('Page 3 of 3');
  });
});

describe('postHead', () => {
  it('titles the found and not-found states exactly', () => {
    const missing = postHead({ origin, slug: 'abc', post: null });
    expect(missing.title).toBe('abc Blog Post Not Found | AI Tools Blog');
    expect(missing.robots).toBe('noindex,nofollow');
    const found = postHead({ origin, slug: FALLBACK_POST.slug, post: FALLBACK_POST });
    expect(found.title).toBe(`${FALLBACK_POST.title} | AI Tools Blog`);
    expect(found.description).toBe(FALLBACK_POST.excerpt);
    expect(found.robots).toBe('index,follow');
    expect(found.canonical).toBe(`https://example.test/blog/${FALLBACK_POST.slug}`);
  });

  it('uses a default sentence when the post has no excerpt', () => {
    const post = { ...FALLBACK_POST, excerpt: '' };
    expect(postHead({ origin, slug: post.slug, post }).description).toMatch(/AI Tools Blog/);
  });
});
