import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CACHE_TTL_MS, createBlogService } from './blogService';
import { normalizePost, type BlogPost } from './posts';

const posts: BlogPost[] = [
  normalizePost({
    slug: 'old',
    title: 'Old news',
    excerpt: 'About agents',
    content: 'Body text',
    category: 'AI Automation',
    tags: ['Agents', 'MCP'],
    published_at: '2026-01-01',
  }),
  normalizePost({
    slug: 'new',
    title: 'Fresh',
    excerpt: 'Short',
    content: 'Mentions a Kubernetes cluster',
    category: 'MCP',
    tags: ['Claude'],
    published_at: '2026-06-01',
    featured: true,
  }),
  normalizePost({
    slug: 'mid',
    title: 'Middle',
    excerpt: 'Nothing',
    content: '',
    category: 'AI Basics',
    tags: ['Prompting', 'claude'],
    published_at: '2026-03-01',
  }),
];

describe('blog data service', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-23T10:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('keeps the full list for 5 minutes, then fetches again', async () => {
    const load = vi.fn(async () => ({ ok: true, posts }));
    const service = createBlogService(load);
    expect(await service.getAllPosts()).toBe(posts);
    await service.getAllPosts();
    vi.advanceTimersByTime(CACHE_TTL_MS - 1);
    await service.getAllPosts();
    expect(load).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    await service.getAllPosts();
    expect(load).toHaveBeenCalledTimes(2);
    expect(CACHE_TTL_MS).toBe(300_000);
  });

  it('does not cache a failed answer, and shares one fetch between simultaneous callers', async () => {
    const load = vi.fn().mockResolvedValueOnce({ ok: false, posts: [] }).mockResolvedValue({ ok: true, posts });
    const service = createBlogService(load);
    expect(await service.getAllPosts()).toEqual([]);
    const [a, b] = await Promise.all([service.getAllPosts(), service.getAllPosts()]);
    expect(a).toBe(posts);
    expect(b).toBe(posts);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
