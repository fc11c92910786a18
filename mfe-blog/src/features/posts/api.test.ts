import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FetchJson } from '@aitools/platform';
import { fetchPost, fetchPostList, readPostList } from './api';

const doc = { slug: 'a', title: 'A', content: 'word '.repeat(300), tags: '["x"]' };

function fetcher(answer: { ok: boolean; status: number; body: unknown } | Error): FetchJson & ReturnType<typeof vi.fn> {
  return vi.fn(async () => {
    if (answer instanceof Error) throw answer;
    return answer;
  }) as never;
}

afterEach(() => vi.restoreAllMocks());

describe('readPostList', () => {
  it('reads a list directly or under data, and drops entries that are not posts', () => {
    expect(readPostList([doc])).toEqual([doc]);
    expect(readPostList({ success: true, data: [doc, null, { title: 'no slug' }] })).toEqual([doc]);
    expect(readPostList({ posts: [] })).toBeNull();
    expect(readPostList(null)).toBeNull();
  });
});

describe('fetchPostList', () => {
  it('normalises the posts of a good answer', async () => {
    const f = fetcher({ ok: true, status: 200, body: { success: true, data: [doc] } });
    const { ok, posts } = await fetchPostList(f);
    expect(f).toHaveBeenCalledWith('/api/blog/public/posts');
    expect(ok).toBe(true);
    expect(posts[0]).toMatchObject({ slug: 'a', tags: ['x'], readTime: '2 min read', author: 'AI Tools Team' });
  });

  it('logs a non-OK answer and gives an empty list', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await fetchPostList(fetcher({ ok: false, status: 500, body: null }))).toEqual({ ok: false, posts: [] });
    expect(error).toHaveBeenCalledWith('Failed to fetch blog posts: HTTP 500');
  });

  it('lets a network failure through (the list shows its error screen)', async () => {
    await expect(fetchPostList(fetcher(new TypeError('Failed to fetch')))).rejects.toThrow('Failed to fetch');
  });
});

describe('fetchPost', () => {
  it('finds a post under data', async () => {
    const f = fetcher({ ok: true, status: 200, body: { success: true, data: doc } });
    const result = await fetchPost(f, 'a b');
    expect(f).toHaveBeenCalledWith('/api/blog/public/posts/a%20b');
    expect(result).toMatchObject({ kind: 'found', post: { slug: 'a', title: 'A' } });
  });

  it('reports 404 as missing and logs "Blog post not found"', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await fetchPost(fetcher({ ok: false, status: 404, body: { success: false } }), 'x')).toEqual({
      kind: 'missing',
    });
    expect(warn).toHaveBeenCalledWith('Blog post not found');
  });

  it('reports other failures and network errors as failed, with the documented message logged', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await fetchPost(fetcher({ ok: false, status: 500, body: null }), 'x')).toEqual({ kind: 'failed' });
    expect(await fetchPost(fetcher(new TypeError('offline')), 'x')).toEqual({ kind: 'failed' });
    expect(await fetchPost(fetcher({ ok: true, status: 200, body: { data: { nope: 1 } } }), 'x')).toEqual({
      kind: 'failed',
    });
    expect(error).toHaveBeenCalledTimes(3);
    expect(error.mock.calls[0][0]).toBe('Failed to load blog post. Please try again.');
  });
});
