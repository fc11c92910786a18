import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import BlogPost, { choosePost, loadBlogPost, type BlogPostData } from './BlogPost';
import { normalizePost } from '../lib/posts';
import { FALLBACK_POST, FALLBACK_SLUG } from '../lib/fallbackPost';
import { renderAt, stubFetch } from '../test/fixtures';

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

function show(path: string, data?: BlogPostData) {
  return renderAt(path, [
    { path: '/blog/:slug', element: <BlogPost data={data} /> },
    { path: '/blog', element: <p>Blog list</p> },
  ]);
}

beforeEach(() => {
  scrollTo.mockReset();
  vi.stubGlobal('scrollTo', scrollTo);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('BlogPost with server data', () => {
  it('shows the article with its header, body, share and navigation', () => {
    show('/blog/mcp-guide', found);
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
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
    expect(document.title).toBe('The MCP Guide | AI Tools Blog');
    expect(document.head.querySelector('meta[name="description"]')?.getAttribute('content')).toBe('Everything about MCP.');
  });

  it('hides the featured image when it fails to load', () => {
    show('/blog/mcp-guide', found);
    fireEvent.error(screen.getByAltText('MCP diagram'));
    expect(screen.queryByAltText('MCP diagram')).toBeNull();
  });

  it('shares with the device share feature, else copies the link and alerts', async () => {
    show('/blog/mcp-guide', found);
    const writeText = vi.fn(async () => {});
    const alert = vi.fn();
    vi.stubGlobal('navigator', { ...navigator, share: undefined, clipboard: { writeText } });
    vi.stubGlobal('alert', alert);
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Link copied to clipboard!'));
    expect(writeText).toHaveBeenCalledWith(window.location.href);
    const share = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, share });
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
    await waitFor(() => expect(share).toHaveBeenCalledWith(expect.objectContaining({ title: 'The MCP Guide' })));
  });

  it('navigates in-app from a site link inside the body', () => {
    show('/blog/mcp-guide', found);
    expect(screen.getByRole('link', { name: 'the spec' }).getAttribute('target')).toBe('_blank');
    fireEvent.click(screen.getByRole('link', { name: 'the list' }));
    expect(screen.getByText('Blog list')).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/blog');
  });

  it('shows the not-found screen with both links, titled and kept out of search engines', () => {
    show('/blog/nope', { slug: 'nope', post: null });
    expect(screen.getByRole('heading', { name: 'Blog Post Not Found' })).toBeTruthy();
    expect(screen.getByText(/could not be found\. It may have been moved or deleted\./)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Browse All Blog Posts' }).getAttribute('href')).toBe('/blog');
    expect(screen.getByRole('link', { name: 'Back to AI Tools Directory' }).getAttribute('href')).toBe('/');
    expect(document.title).toBe('nope Blog Post Not Found | AI Tools Blog');
    expect(document.head.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex,nofollow');
  });
});

describe('BlogPost without server data', () => {
  it('shows the loading state and title, then the post', async () => {
    stubFetch(() => ({ status: 200, body: { success: true, data: doc } }));
    show('/blog/mcp-guide');
    expect(screen.getByRole('heading', { name: 'Loading Blog Post' })).toBeTruthy();
    expect(document.title).toBe('Loading mcp-guide | AI Tools Blog');
    expect(await screen.findByRole('heading', { level: 1, name: 'The MCP Guide' })).toBeTruthy();
  });

  it('shows not found for a 404, logging "Blog post not found"', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    stubFetch(() => ({ status: 404, body: { success: false, error: 'Blog post not found' } }));
    show('/blog/gone');
    expect(await screen.findByRole('heading', { name: 'Blog Post Not Found' })).toBeTruthy();
    expect(warn).toHaveBeenCalledWith('Blog post not found');
  });

  it('shows not found after a failure, logging the SPEC message', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch(() => new TypeError('offline'));
    show('/blog/broken');
    expect(await screen.findByRole('heading', { name: 'Blog Post Not Found' })).toBeTruthy();
    expect(error.mock.calls[0][0]).toBe('Failed to load blog post. Please try again.');
  });

  it('shows the built-in history post when its slug is missing or fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch(() => ({ status: 500, body: null }));
    show(`/blog/${FALLBACK_SLUG}`);
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

  it('answers 404 for a missing post and 200 with the whole post otherwise', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const ctx = (status: number, body: unknown) => ({ params: { slug: 'mcp-guide' }, url: new URL('http://x/blog/mcp-guide'), fetchJson: async () => ({ ok: status < 400, status, body }) as never });
    expect(await loadBlogPost(ctx(404, null))).toEqual({ data: { slug: 'mcp-guide', post: null }, status: 404 });
    const ok = await loadBlogPost(ctx(200, { data: doc }));
    expect(ok.status).toBe(200);
    expect(ok.data.post?.content).toContain('## Why it matters');
  });
});
