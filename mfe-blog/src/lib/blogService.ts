import type { BlogPost } from './posts';

/** The full list is kept for 5 minutes (docs/product.md, Post data). */
export const CACHE_TTL_MS = 5 * 60 * 1000;
const DEFAULT_RECENT = 5;

export interface BlogService {
  getAllPosts(): Promise<BlogPost[]>;
  getFeaturedPosts(): Promise<BlogPost[]>;
  getPostsByCategory(category: string): Promise<BlogPost[]>;
  getPostsByTag(tag: string): Promise<BlogPost[]>;
  getRecentPosts(limit?: number): Promise<BlogPost[]>;
  searchPosts(query: string): Promise<BlogPost[]>;
  getCategories(): Promise<string[]>;
  getTags(): Promise<string[]>;
  clearCache(): void;
}

/**
 * The blog data service (docs/product.md, Post data). `load` fetches the whole list; a successful answer is cached in memory
 * for 5 minutes, a failed one (`ok: false`) is returned but not cached so the next call tries again.
 */
export function createBlogService(
  load: () => Promise<{ ok: boolean; posts: BlogPost[] }>,
  now: () => number = Date.now,
): BlogService {
  let cache: { posts: BlogPost[]; at: number } | null = null;
  let pending: Promise<BlogPost[]> | null = null;

  async function getAllPosts(): Promise<BlogPost[]> {
    if (cache && now() - cache.at < CACHE_TTL_MS) return cache.posts;
    // Callers arriving while a fetch is under way share it.
    pending ??= load()
      .then(({ ok, posts }) => {
        if (ok) cache = { posts, at: now() };
        return posts;
      })
      .finally(() => {
        pending = null;
      });
    return pending;
  }

  const lower = (s: string) => s.trim().toLowerCase();
  const sortedUnique = (values: string[]) => [...new Set(values.filter(Boolean))].sort((a, b) => a.localeCompare(b));

  return {
    getAllPosts,
    async getFeaturedPosts() {
      return (await getAllPosts()).filter((p) => p.featured);
    },
    async getPostsByCategory(category) {
      return (await getAllPosts()).filter((p) => lower(p.category) === lower(category));
    },
    async getPostsByTag(tag) {
      return (await getAllPosts()).filter((p) => p.tags.some((t) => lower(t) === lower(tag)));
    },
    async getRecentPosts(limit = DEFAULT_RECENT) {
      const dated = (p: BlogPost) => Date.parse(p.publishedAt) || 0;
      return [...(await getAllPosts())].sort((a, b) => dated(b) - dated(a)).slice(0, Math.max(0, limit));
    },
    async searchPosts(query) {
      const q = lower(query);
      const posts = await getAllPosts();
      if (!q) return posts;
      return posts.filter((p) =>
        [p.title, p.excerpt, p.content, ...p.tags].some((field) => field.toLowerCase().includes(q)),
      );
    },
    async getCategories() {
      return sortedUnique((await getAllPosts()).map((p) => p.category));
    },
    async getTags() {
      return sortedUnique((await getAllPosts()).flatMap((p) => p.tags));
    },
    clearCache() {
      cache = null;
    },
  };
}
