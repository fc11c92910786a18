import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import BlogList, { loadBlogList, type BlogListData } from './BlogList';
import { blogService } from '../lib/blogClient';
import { normalizePost, toSummary } from '../lib/posts';
import { makeDocs, renderAt, stubFetch } from '../test/fixtures';

const data = (n: number): BlogListData => ({ posts: makeDocs(n).map((d) => toSummary(normalizePost(d))) });
const scrollTo = vi.fn();

function show(path: string, props: { data?: BlogListData }) {
  return renderAt(path, [{ path: '/blog', element: <BlogList {...props} /> }]);
}
const where = () => screen.getByTestId('where').textContent;
const cardTitles = () => screen.queryAllByRole('heading', { level: 3 }).map((h) => h.textContent);

beforeEach(() => {
  blogService.clearCache();
  scrollTo.mockReset();
  vi.stubGlobal('scrollTo', scrollTo);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('BlogList with server data', () => {
  it('shows the hero, the featured post and the first 12 others on page 1', () => {
    show('/blog', { data: data(16) });
    expect(screen.getByRole('heading', { level: 1, name: 'AI Tools Blog' })).toBeTruthy();
    expect(screen.getByText('Expert insights on AI tools, automation workflows & enterprise adoption')).toBeTruthy();
    for (const text of ['16 Articles', 'Page 1 of 2', 'Updated Weekly', 'Expert Insights']) expect(screen.getByText(text)).toBeTruthy();
    expect(screen.getByRole('link', { name: '← Back to Tools' }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('link', { name: 'TOOLS' }).getAttribute('href')).toBe('/');
    expect(scrollTo).toHaveBeenCalledWith(0, 0);

    const featured = screen.getByRole('article', { name: 'Post number 0' });
    expect(within(featured).getByText('Featured')).toBeTruthy();
    expect(within(featured).getByText('12/1/2026')).toBeTruthy();
    expect(within(featured).getByText('1 min read')).toBeTruthy();
    expect(within(featured).getByRole('link', { name: 'Post number 0' }).getAttribute('href')).toBe('/blog/post-0');
    expect(within(featured).getByText('Excerpt 0')).toBeTruthy();
    expect(within(featured).getByText('AI Basics')).toBeTruthy();
    expect(within(featured).getByRole('link', { name: 'Read Full Article' }).getAttribute('href')).toBe('/blog/post-0');

    expect(screen.getByRole('heading', { name: 'Latest Posts' })).toBeTruthy();
    expect(cardTitles()).toEqual(Array.from({ length: 12 }, (_, i) => (i + 1 === 3 ? 'Setting up an MCP server' : `Post number ${i + 1}`)));
    // Posts without an image of their own show their generated cover.
    expect([...document.querySelectorAll('.blog-latest img.blog-card__image')].map((i) => i.getAttribute('src')?.replace(/\?.*/, ''))).toEqual(
      cardTitles().map((_, i) => `/covers/post-${i + 1}.png`),
    );
    // Post 7 has 4 tags: 3 shown and "+1 more".
    const card7 = screen.getByRole('link', { name: 'Post number 7' }).closest('article')!;
    expect(within(card7).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Claude', 'MCP', 'Agents', '+1 more']);
  });

  it('hides "Page X of Y" and the pagination with one page', () => {
    show('/blog', { data: data(13) });
    expect(screen.queryByText(/Page \d of/)).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Blog pagination' })).toBeNull();
  });

  it('pages with the control: next, then a page number, with a smooth scroll to the top', () => {
    show('/blog', { data: data(40) });
    const nav = screen.getByRole('navigation', { name: 'Blog pagination' });
    expect((within(nav).getByRole('button', { name: 'Previous page' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(nav).getAllByRole('button', { name: /^Page/ }).map((b) => b.textContent)).toEqual(['1', '2', '3', '4']);
    fireEvent.click(within(nav).getByRole('button', { name: 'Next page' }));
    expect(where()).toBe('/blog?page=2');
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 0, behavior: 'smooth' });
    expect(screen.queryByText('Featured')).toBeNull();
    expect(cardTitles()[0]).toBe('Post number 13');
    expect(cardTitles()).toHaveLength(12);
    fireEvent.click(screen.getByRole('button', { name: 'Page 4' }));
    expect(where()).toBe('/blog?page=4');
    expect(cardTitles()).toEqual(['Post number 37', 'Post number 38', 'Post number 39']);
    expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Page 4' }).getAttribute('aria-current')).toBe('page');
    fireEvent.click(screen.getByRole('button', { name: 'Page 1' }));
    expect(where()).toBe('/blog');
  });

  it('opens the page named in the address, clamping numbers past the end', () => {
    show('/blog?page=2', { data: data(16) });
    expect(screen.getByText('Page 2 of 2')).toBeTruthy();
    expect(cardTitles()).toEqual(['Post number 13', 'Post number 14', 'Post number 15']);
    const next = document.head.querySelector('link[rel="prev"]');
    expect(next?.getAttribute('href')).toBe('/blog');
  });

  it('clamps a page past the end to the last page', () => {
    show('/blog?page=99', { data: data(16) });
    expect(screen.getByText('Page 2 of 2')).toBeTruthy();
  });

  it('searches title and excerpt case-insensitively and returns to page 1', () => {
    show('/blog?page=2', { data: data(16) });
    fireEvent.change(screen.getByPlaceholderText('Search posts...'), { target: { value: 'token' } });
    expect(where()).toBe('/blog');
    expect(screen.getByRole('article', { name: 'Post number 5' })).toBeTruthy();
    expect(screen.getByText('1 Article')).toBeTruthy();
    fireEvent.change(screen.getByPlaceholderText('Search posts...'), { target: { value: 'mcp SERVER' } });
    expect(screen.getByRole('article', { name: 'Setting up an MCP server' })).toBeTruthy();
  });

  it('filters by a chip on category or tag, shows the hint, and clears on a second click', () => {
    show('/blog?page=2', { data: data(16) });
    const chip = screen.getByRole('button', { name: 'MCP' });
    fireEvent.click(chip);
    expect(where()).toBe('/blog');
    expect(chip.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText('Click "MCP" again to clear filter')).toBeTruthy();
    // Only post 7 has the MCP tag; none has the MCP category.
    expect(screen.getByRole('article', { name: 'Post number 7' })).toBeTruthy();
    expect(screen.getByText('1 Article')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Tutorial' }));
    expect(screen.getByText('8 Articles')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Tutorial' }));
    expect(screen.getByRole('button', { name: 'All' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.queryByText(/again to clear filter/)).toBeNull();
    expect(screen.getByText('16 Articles')).toBeTruthy();
    expect(screen.getAllByRole('button', { pressed: false })).toHaveLength(18);
  });

  it('shows the empty state, and Clear Filters brings every post back', () => {
    show('/blog', { data: data(16) });
    fireEvent.click(screen.getByRole('button', { name: 'AI Legal' }));
    fireEvent.change(screen.getByPlaceholderText('Search posts...'), { target: { value: 'zzz' } });
    expect(screen.getByRole('heading', { name: 'No blog posts found' })).toBeTruthy();
    expect(screen.getByText("Try adjusting your search terms or filters to find the posts you're looking for.")).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear Filters' }));
    expect(screen.getByText('16 Articles')).toBeTruthy();
    expect((screen.getByPlaceholderText('Search posts...') as HTMLInputElement).value).toBe('');
  });

  it('shows the fallback sample post when there are no posts', () => {
    show('/blog', { data: { posts: [] } });
    expect(screen.getByRole('article', { name: 'How AI All Started: A Brief History of Artificial Intelligence' })).toBeTruthy();
    expect(screen.getByText('1 Article')).toBeTruthy();
  });

  it('writes the head: title, description, next link and Blog structured data', () => {
    show('/blog', { data: data(16) });
    expect(document.title).toBe('AI Tools Blog | Expert Insights on AI Tools & Automation');
    expect(document.head.querySelector('link[rel="next"]')?.getAttribute('href')).toBe('/blog?page=2');
    expect(document.head.querySelector('meta[property="og:title"]')).toBeTruthy();
    const ld = JSON.parse(document.head.querySelector('script[type="application/ld+json"]')!.textContent!);
    expect(ld.blogPost).toHaveLength(10);
  });

  it('shows "Image failed to load" when a card image fails', () => {
    const d = data(3);
    d.posts[1] = { ...d.posts[1], featuredImage: '/broken.png', featuredImageAlt: 'Broken' };
    show('/blog', { data: d });
    fireEvent.error(screen.getByAltText('Broken'));
    expect(screen.getByText('Image failed to load')).toBeTruthy();
  });
});

describe('BlogList without server data (in-app navigation)', () => {
  it('shows the loading state, then the posts from the API', async () => {
    const fetch = stubFetch(() => ({ status: 200, body: { success: true, data: makeDocs(4) } }));
    show('/blog', {});
    expect(screen.getByText('Loading blog posts...')).toBeTruthy();
    expect(await screen.findByRole('article', { name: 'Post number 0' })).toBeTruthy();
    expect(String(fetch.mock.calls[0][0])).toBe('/api/blog/public/posts');
  });

  it('shows the fallback sample post when the API answers with an error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch(() => ({ status: 500, body: { success: false } }));
    show('/blog', {});
    expect(await screen.findByRole('article', { name: 'How AI All Started: A Brief History of Artificial Intelligence' })).toBeTruthy();
  });

  it('shows "Error Loading Blog" with the message and Try Again when the request fails', async () => {
    stubFetch(() => new TypeError('Failed to fetch'));
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    show('/blog', {});
    expect(await screen.findByRole('heading', { name: 'Error Loading Blog' })).toBeTruthy();
    expect(screen.getByText('Failed to fetch')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(reload).toHaveBeenCalled();
  });
});

describe('loadBlogList', () => {
  it('gives the posts without their bodies', async () => {
    const result = await loadBlogList({ params: {}, url: new URL('http://x/blog'), fetchJson: async () => ({ ok: true, status: 200, body: { data: makeDocs(2) } }) as never });
    expect(result.data.posts.map((p) => p.slug)).toEqual(['post-0', 'post-1']);
    expect(result.data.posts[0]).not.toHaveProperty('content');
  });

  it('gives no posts (so the fallback shows) when the API is unreachable', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const result = await loadBlogList({ params: {}, url: new URL('http://x/blog'), fetchJson: async () => { throw new Error('down'); } });
    expect(result).toEqual({ data: { posts: [] } });
  });
});

