import type { BlogPost } from './posts';

/** The full list is kept for 5 minutes (docs/product.md, Post data). */
export const CACHE_TTL_MS = 5 * 60 * 1000;

export interface BlogService {
  /** Every published post; the list page filters and pages them itself (listView). */
  getAllPosts(): Promise<BlogPost[]>;
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

  return { getAllPosts };
}
