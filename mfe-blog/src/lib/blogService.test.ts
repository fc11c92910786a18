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
    await service.getRecentPosts();
    vi.advanceTimersByTime(CACHE_TTL_MS - 1);
    await service.searchPosts('x');
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
    const [a, b] = await Promise.all([service.getAllPosts(), service.getTags()]);
    expect(a).toBe(posts);
    expect(b.length).toBeGreaterThan(0);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('fetches again after clearCache', async () => {
    const load = vi.fn(async () => ({ ok: true, posts }));
    const service = createBlogService(load);
    await service.getAllPosts();
    service.clearCache();
    await service.getAllPosts();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('filters by featured, category and tag (case-insensitive)', async () => {
    const service = createBlogService(async () => ({ ok: true, posts }));
    expect((await service.getFeaturedPosts()).map((p) => p.slug)).toEqual(['new']);
    expect((await service.getPostsByCategory('mcp')).map((p) => p.slug)).toEqual(['new']);
    expect((await service.getPostsByTag('Claude')).map((p) => p.slug)).toEqual(['new', 'mid']);
  });

  it('gives the most recent posts, 5 by default', async () => {
    const many = Array.from({ length: 7 }, (_, i) =>
      normalizePost({ slug: `p${i}`, title: `P${i}`, published_at: `2026-0${i + 1}-01` }),
    );
    const service = createBlogService(async () => ({ ok: true, posts: many }));
    expect((await service.getRecentPosts()).map((p) => p.slug)).toEqual(['p6', 'p5', 'p4', 'p3', 'p2']);
    expect((await service.getRecentPosts(2)).map((p) => p.slug)).toEqual(['p6', 'p5']);
  });

  it('searches title, excerpt, content and tags', async () => {
    const service = createBlogService(async () => ({ ok: true, posts }));
    const slugs = async (q: string) => (await service.searchPosts(q)).map((p) => p.slug);
    expect(await slugs('fresh')).toEqual(['new']);
    expect(await slugs('AGENTS')).toEqual(['old']);
    expect(await slugs('kubernetes')).toEqual(['new']);
    expect(await slugs('prompting')).toEqual(['mid']);
    expect(await slugs('  ')).toEqual(['old', 'new', 'mid']);
    expect(await slugs('nowhere')).toEqual([]);
  });

  it('lists sorted unique categories and tags', async () => {
    const service = createBlogService(async () => ({ ok: true, posts }));
    expect(await service.getCategories()).toEqual(['AI Automation', 'AI Basics', 'MCP']);
    expect(await service.getTags()).toEqual(['Agents', 'claude', 'Claude', 'MCP', 'Prompting']);
  });
});
