import type { BlogPostDoc } from '@aitools/contracts/blog';
import type { FetchJson } from '@aitools/platform';
import { normalizePost, type BlogPost } from './posts';

const POSTS_PATH = '/api/blog/public/posts';

/** A list either directly or under `data`; anything else is no list (docs/product.md, API calls). */
export function readPostList(body: unknown): BlogPostDoc[] | null {
  const list = Array.isArray(body)
    ? body
    : body && typeof body === 'object' && Array.isArray((body as { data?: unknown }).data)
      ? (body as { data: unknown[] }).data
      : null;
  return list
    ? list.filter(
        (p): p is BlogPostDoc =>
          !!p &&
          typeof p === 'object' &&
          typeof (p as BlogPostDoc).slug === 'string' &&
          typeof (p as BlogPostDoc).title === 'string',
      )
    : null;
}

/** All published posts. A failed answer is logged and gives an empty list (`ok: false`); a network failure throws. */
export async function fetchPostList(fetcher: FetchJson): Promise<{ ok: boolean; posts: BlogPost[] }> {
  const res = await fetcher(POSTS_PATH);
  const list = res.ok ? readPostList(res.body) : null;
  if (!list) {
    console.error(`Failed to fetch blog posts: ${res.ok ? 'invalid response' : `HTTP ${res.status}`}`);
    return { ok: false, posts: [] };
  }
  return { ok: true, posts: list.map(normalizePost) };
}

export type PostResult = { kind: 'found'; post: BlogPost } | { kind: 'missing' } | { kind: 'failed' };

/** One post by slug: found, missing (404, logged "Blog post not found") or failed (logged; docs/product.md, Blog post). */
export async function fetchPost(fetcher: FetchJson, slug: string): Promise<PostResult> {
  try {
    const res = await fetcher(`${POSTS_PATH}/${encodeURIComponent(slug)}`);
    if (res.status === 404) {
      console.warn('Blog post not found');
      return { kind: 'missing' };
    }
    const body = res.body as { data?: BlogPostDoc } | BlogPostDoc | null;
    const doc = body && 'data' in body && body.data ? body.data : (body as BlogPostDoc | null);
    if (res.ok && doc && typeof doc.slug === 'string' && typeof doc.title === 'string')
      return { kind: 'found', post: normalizePost(doc) };
    throw new Error(`HTTP ${res.status}`);
  } catch (err) {
    console.error('Failed to load blog post. Please try again.', err);
    return { kind: 'failed' };
  }
}
