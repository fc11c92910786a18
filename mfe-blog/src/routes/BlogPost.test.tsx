import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import BlogPostRoute, { choosePost, loadBlogPost, type BlogPostData } from './BlogPost';
import { normalizePost } from '../features/posts/posts';
import { FALLBACK_POST, FALLBACK_SLUG } from '../features/posts/fallbackPost';
import { fakeApi, renderRoute, unwrap, type Answer } from '../../test/fixtures';

// Loaders and navigations settle asynchronously; a loaded machine may need more than the default second.
configure({ asyncUtilTimeout: 5000 });
const doc = {
  slug: 'mcp-guide',
  title: 'The MCP Guide',
  excerpt: 'Everything about MCP.',
  content: '## Why it matters\n\nRead [the list](/blog) or **[the spec](https://modelcontextprotocol.io)**.',
  category: 'MCP',
  tags: ['MCP', 'Claude', 'Agents'],
  published_at: '2026-04-08',
  author: 'Developer Relations Team',
  featured_image: '/images/mcp.png',
  featured_image_alt: 'MCP diagram',
};
const found: BlogPostData = { slug: 'mcp-guide', post: normalizePost(doc) };
const scrollTo = vi.fn();

/** /blog/:slug with the API answering `answer`; the route's loader runs as on the server. */
function show(
  path: string,
  answer: (path: string) => Answer = () => ({ status: 200, body: { success: true, data: doc } }),
) {
  return renderRoute(BlogPostRoute, '/blog/:slug', path, fakeApi(answer).api, {
    others: [{ path: '/blog', element: <p>Blog list</p> }],
  });
}
const headOf = (data: BlogPostData) =>
  BlogPostRoute.head!({ data, url: new URL(`https://example.test/blog/${data.slug}`), params: { slug: data.slug } });

beforeEach(() => {
  scrollTo.mockReset();
  vi.stubGlobal('scrollTo', scrollTo);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('BlogPost', () => {
  it('shows the article with its header, body, share and navigation', async () => {
    show('/blog/mcp-guide');
    await screen.findByRole('heading', { level: 1, name: 'The MCP Guide' });
    expect(screen.getByRole('heading', { level: 1, name: 'The MCP Guide' })).toBeTruthy();
    expect(screen.getByText('Everything about MCP.')).toBeTruthy();
    expect(screen.getAllByText('MCP').length).toBeGreaterThanOrEqual(2);
    expect(screen.getByText('April 8, 2026')).toBeTruthy();
    expect(screen.getByText('By Developer Relations Team')).toBeTruthy();
    expect(screen.getByText('1 min read')).toBeTruthy();
    expect(screen.getByText('Agents')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Why it matters' })).toBeTruthy();
    expect(screen.getByAltText('MCP diagram').getAttribute('src')).toBe('/images/mcp.png');
    expect(screen.getByText('Share this article:')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'BLOG' }).getAttribute('href')).toBe('/blog');
    expect(screen.getByRole('link', { name: 'TOOLS' }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('link', { name: '← Back to Blog' }).getAttribute('href')).toBe('/blog');
    const head = headOf(found);
    expect(head.title).toBe('The MCP Guide | AI Tools Blog');
    expect(head.description).toBe('Everything about MCP.');
    expect(head.robots).toBe('index,follow');
  });

  it('opens at the top when the app opens it, and leaves the page the server sent where the browser has it', async () => {
    // The first render is the page as loaded (a POP): a visitor who scrolled before the code arrived keeps their place.
    const { router } = show('/blog/mcp-guide');
    await screen.findByRole('heading', { level: 1, name: 'The MCP Guide' });
    await act(() => new Promise((r) => setTimeout(r, 0)));
    expect(scrollTo).not.toHaveBeenCalled();
    // Back to the list and into the post again, as links do (PUSH): it opens at its top.
    await act(() => router.navigate('/blog'));
    await act(() => router.navigate('/blog/mcp-guide'));
    await screen.findByRole('heading', { level: 1, name: 'The MCP Guide' });
    await waitFor(() => expect(scrollTo).toHaveBeenCalledWith(0, 0));
    expect(scrollTo).toHaveBeenCalledTimes(1);
  });

  it('hides the featured image when it fails to load', async () => {
    show('/blog/mcp-guide');
    fireEvent.error(await screen.findByAltText('MCP diagram'));
    expect(screen.queryByAltText('MCP diagram')).toBeNull();
  });

  it('shares with the device share feature, else copies the link and alerts', async () => {
    show('/blog/mcp-guide');
    await screen.findByRole('link', { name: 'Share' });
    const writeText = vi.fn(async () => {});
    const alert = vi.fn();
    vi.stubGlobal('navigator', { ...navigator, share: undefined, clipboard: { writeText } });
    vi.stubGlobal('alert', alert);
    fireEvent.click(screen.getByRole('link', { name: 'Share' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Link copied to clipboard!'));
    expect(writeText).toHaveBeenCalledWith(window.location.href);
    const share = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, share });
    fireEvent.click(screen.getByRole('link', { name: 'Share' }));
    await waitFor(() => expect(share).toHaveBeenCalledWith(expect.objectContaining({ title: 'The MCP Guide' })));
  });

  it('navigates in-app from a site link inside the body', async () => {
    const { router } = show('/blog/mcp-guide');
    await screen.findByRole('link', { name: 'the list' });
    expect(screen.getByRole('link', { name: 'the spec' }).getAttribute('target')).toBe('_blank');
    fireEvent.click(screen.getByRole('link', { name: 'the list' }));
    expect(await screen.findByText('Blog list')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/blog');
  });

  it('shows the not-found screen with both links, titled and kept out of search engines', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    show('/blog/nope', () => ({ status: 404, body: { success: false } }));
    expect(await screen.findByRole('heading', { name: 'Blog Post Not Found' })).toBeTruthy();
    expect(
      screen.getByText('The blog post you are looking for could not be found. It may have been moved or deleted.'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Browse All Blog Posts' }).getAttribute('href')).toBe('/blog');
    expect(screen.getByRole('link', { name: 'Back to AI Tools Directory' }).getAttribute('href')).toBe('/');
    const head = headOf({ slug: 'nope', post: null });
    expect(head.title).toBe('nope Blog Post Not Found | AI Tools Blog');
    expect(head.robots).toBe('noindex,nofollow');
  });

  it('has a loading screen for in-app navigations, titled after the post it loads', async () => {
    const Pending = BlogPostRoute.Pending!;
    render(<Pending params={{ slug: 'what-is-mcp' }} />);
    expect(screen.getByRole('heading', { name: 'Loading Blog Post' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Loading what-is-mcp | AI Tools Blog'));
  });

  it('shows not found for a 404, logging "Blog post not found"', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    show('/blog/gone', () => ({ status: 404, body: { success: false, error: 'Blog post not found' } }));
    expect(await screen.findByRole('heading', { name: 'Blog Post Not Found' })).toBeTruthy();
    expect(warn).toHaveBeenCalledWith('Blog post not found');
  });

  it('shows not found after a failure, logging the documented message', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    show('/blog/broken', () => new TypeError('offline'));
    expect(await screen.findByRole('heading', { name: 'Blog Post Not Found' })).toBeTruthy();
    expect(error.mock.calls[0][0]).toBe('Failed to load blog post. Please try again.');
  });

  it('shows the built-in history post when its slug is missing or fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    show(`/blog/${FALLBACK_SLUG}`, () => ({ status: 500, body: null }));
    expect(await screen.findByRole('heading', { level: 1, name: FALLBACK_POST.title })).toBeTruthy();
    expect(screen.getByText('By AI Tools Team')).toBeTruthy();
    expect(screen.getByText('8 min read')).toBeTruthy();
  });
});

describe('choosePost and loadBlogPost', () => {
  it('picks the post, the fallback for its own slug, or nothing', () => {
    expect(choosePost('x', { kind: 'found', post: found.post! })).toBe(found.post);
    expect(choosePost(FALLBACK_SLUG, { kind: 'missing' })).toBe(FALLBACK_POST);
    expect(choosePost(FALLBACK_SLUG, { kind: 'failed' })).toBe(FALLBACK_POST);
    expect(choosePost('x', { kind: 'missing' })).toBeNull();
    expect(choosePost('x', { kind: 'failed' })).toBeNull();
  });

  it('answers 404 for a missing post and 200 with the whole post otherwise, from the API in the context', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const load = (status: number, body: unknown) => {
      const { api, calls } = fakeApi(() => ({ status, body }));
      return loadBlogPost({ params: { slug: 'mcp-guide' }, context: { api } }).then((r) => ({ ...unwrap(r), calls }));
    };
    const missing = await load(404, null);
    expect(missing).toMatchObject({ value: { slug: 'mcp-guide', post: null }, status: 404 });
    expect(missing.calls).toEqual(['/api/blog/public/posts/mcp-guide']);
    const ok = await load(200, { data: doc });
    expect(ok.status).toBe(200);
    expect(ok.value.post?.content).toContain('## Why it matters');
    // The history post keeps its rule: shown (200) when the API cannot give it.
    const history = unwrap(
      await loadBlogPost({
        params: { slug: FALLBACK_SLUG },
        context: { api: fakeApi(() => ({ status: 404, body: null })).api },
      }),
    );
    expect(history).toEqual({ value: { slug: FALLBACK_SLUG, post: FALLBACK_POST }, status: 200 });
  });
});
