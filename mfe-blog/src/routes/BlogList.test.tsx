import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { RouterProvider } from 'react-router-dom';
import BlogListRoute, { loadBlogList, type BlogListData } from './BlogList';
import { FALLBACK_POST } from '../features/posts/fallbackPost';
import { fakeApi, makeDocs, renderRoute, routeRouter, unwrap, type Answer } from '../../test/fixtures';

// Loaders and navigations settle asynchronously; a loaded machine may need more than the default second.
configure({ asyncUtilTimeout: 5000 });
const listAnswer = (n: number): Answer => ({ status: 200, body: { success: true, data: makeDocs(n) } });
const scrollTo = vi.fn();

/** /blog (or /blog?...) with n posts from the API; the route's loader runs as on the server. */
async function show(path: string, n = 16) {
  const { api, calls } = fakeApi(() => listAnswer(n));
  const view = renderRoute(BlogListRoute, '/blog', path, api, {
    others: [{ path: '/blog/:slug', element: <p>A post</p> }],
  });
  await screen.findByRole('heading', { level: 1 });
  return { ...view, calls };
}
const where = () => screen.getByTestId('where').textContent;
const cardTitles = () => screen.queryAllByRole('heading', { level: 3 }).map((h) => h.textContent);
const searchBox = () => screen.getByPlaceholderText('Search posts...') as HTMLInputElement;
const chip = (name: string) => within(screen.getByRole('group', { name: 'Categories' })).getByRole('link', { name });
const headOf = async (path: string, n = 16) => {
  const url = new URL(path, 'https://example.test');
  const { value } = unwrap(await loadBlogList({ context: { api: fakeApi(() => listAnswer(n)).api } }));
  return BlogListRoute.head!({ data: value, url, params: {} });
};

beforeEach(() => {
  scrollTo.mockReset();
  vi.stubGlobal('scrollTo', scrollTo);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('BlogList', () => {
  it('opens at the top when the app opens it, and leaves the page the server sent where the browser has it', async () => {
    // The first render is the page as loaded (a POP): a visitor who scrolled before the code arrived keeps their place.
    const { router } = await show('/blog');
    await act(() => new Promise((r) => setTimeout(r, 0)));
    expect(scrollTo).not.toHaveBeenCalled();
    await act(() => router.navigate('/blog/some-post'));
    await act(() => router.navigate('/blog'));
    await screen.findByRole('heading', { level: 1, name: 'AI Tools Blog' });
    await waitFor(() => expect(scrollTo).toHaveBeenCalledWith(0, 0));
    expect(scrollTo).toHaveBeenCalledTimes(1);
  });

  it('shows the hero, the featured post and the first 12 others on page 1', async () => {
    await show('/blog');
    expect(screen.getByRole('heading', { level: 1, name: 'AI Tools Blog' })).toBeTruthy();
    expect(screen.getByText('Expert insights on AI tools, automation workflows & enterprise adoption')).toBeTruthy();
    for (const text of ['16 Articles', 'Page 1 of 2', 'Updated Weekly', 'Expert Insights'])
      expect(screen.getByText(text)).toBeTruthy();
    expect(screen.getByRole('link', { name: '← Back to Tools' }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('link', { name: 'TOOLS' }).getAttribute('href')).toBe('/');

    const featured = screen.getByRole('article', { name: 'Post number 0' });
    expect(within(featured).getByText('Featured')).toBeTruthy();
    expect(within(featured).getByText('12/1/2026')).toBeTruthy();
    expect(within(featured).getByText('1 min read')).toBeTruthy();
    expect(within(featured).getByRole('link', { name: 'Post number 0' }).getAttribute('href')).toBe('/blog/post-0');
    expect(within(featured).getByText('Excerpt 0')).toBeTruthy();
    expect(within(featured).getByText('AI Basics')).toBeTruthy();
    expect(within(featured).getByRole('link', { name: 'Read Full Article' }).getAttribute('href')).toBe('/blog/post-0');

    expect(screen.getByRole('heading', { name: 'Latest Posts' })).toBeTruthy();
    expect(cardTitles()).toEqual(
      Array.from({ length: 12 }, (_, i) => (i + 1 === 3 ? 'Setting up an MCP server' : `Post number ${i + 1}`)),
    );
    // Posts without an image of their own show their generated cover.
    expect(
      [...document.querySelectorAll('.blog-latest img.blog-card__image')].map((i) =>
        i.getAttribute('src')?.replace(/\?.*/, ''),
      ),
    ).toEqual(cardTitles().map((_, i) => `/covers/post-${i + 1}.png`));
    // Post 7 has 4 tags: 3 shown and "+1 more".
    const card7 = screen.getByRole('link', { name: 'Post number 7' }).closest('article')!;
    expect(
      within(card7)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Claude', 'MCP', 'Agents', '+1 more']);
  });

  it('hides "Page X of Y" and the pagination with one page', async () => {
    await show('/blog', 13);
    expect(screen.queryByText(/Page \d of/)).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Blog pagination' })).toBeNull();
  });

  it('pages with links (page 1 without a parameter), disabled arrows at the ends, a smooth scroll to the top', async () => {
    const { calls } = await show('/blog', 40);
    const nav = () => screen.getByRole('navigation', { name: 'Blog pagination' });
    const prev = within(nav()).getByRole('link', { name: 'Previous page' });
    expect(prev.getAttribute('aria-disabled')).toBe('true');
    expect(prev.hasAttribute('href')).toBe(false);
    expect(
      within(nav())
        .getAllByRole('link', { name: /^Page/ })
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['1', '/blog'],
      ['2', '/blog?page=2'],
      ['3', '/blog?page=3'],
      ['4', '/blog?page=4'],
    ]);
    expect(screen.getByRole('link', { name: 'Page 1' }).getAttribute('aria-current')).toBe('page');
    fireEvent.click(within(nav()).getByRole('link', { name: 'Next page' }));
    await waitFor(() => expect(where()).toBe('/blog?page=2'));
    expect(scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'smooth' });
    await waitFor(() => expect(cardTitles()[0]).toBe('Post number 13'));
    expect(screen.queryByText('Featured')).toBeNull();
    expect(cardTitles()).toHaveLength(12);
    expect(within(nav()).getByRole('link', { name: 'Previous page' }).getAttribute('href')).toBe('/blog');
    fireEvent.click(screen.getByRole('link', { name: 'Page 4' }));
    await waitFor(() => expect(cardTitles()).toEqual(['Post number 37', 'Post number 38', 'Post number 39']));
    expect(where()).toBe('/blog?page=4');
    expect(within(nav()).getByRole('link', { name: 'Next page' }).getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByRole('link', { name: 'Page 4' }).getAttribute('aria-current')).toBe('page');
    fireEvent.click(screen.getByRole('link', { name: 'Page 1' }));
    await waitFor(() => expect(where()).toBe('/blog'));
    // Paging is a new view of the same posts: no new request.
    expect(calls).toEqual(['/api/blog/public/posts']);
  });

  it('opens the page named in the address, clamping numbers past the end', async () => {
    await show('/blog?page=2');
    expect(screen.getByText('Page 2 of 2')).toBeTruthy();
    expect(cardTitles()).toEqual(['Post number 13', 'Post number 14', 'Post number 15']);
  });

  it('clamps a page past the end to the last page', async () => {
    await show('/blog?page=99');
    expect(screen.getByText('Page 2 of 2')).toBeTruthy();
  });

  it('is a GET form to /blog named "search", filled from the address, which it filters by', async () => {
    await show('/blog?search=token&category=Tutorial');
    const form = searchBox().closest('form')!;
    expect(form.getAttribute('method')).toBe('get');
    expect(form.getAttribute('action')).toBe('/blog');
    expect(searchBox().name).toBe('search');
    expect(searchBox().value).toBe('token');
    // The category goes with a search sent without code.
    expect((form.querySelector('input[type="hidden"][name="category"]') as HTMLInputElement).value).toBe('Tutorial');
    expect(screen.getByText('1 Article')).toBeTruthy();
    expect(screen.getByRole('article', { name: 'Post number 5' })).toBeTruthy();
  });

  it('searches title and excerpt case-insensitively per keystroke, writing the address with replace and returning to page 1', async () => {
    const { router, calls } = await show('/blog?page=2');
    fireEvent.change(searchBox(), { target: { value: 'token' } });
    // The count is a status, so a screen reader hears it change.
    expect(screen.getByText('1 Article').getAttribute('role')).toBe('status');
    expect(screen.getByRole('article', { name: 'Post number 5' })).toBeTruthy();
    await waitFor(() => expect(where()).toBe('/blog?search=token'));
    expect(router.state.historyAction).toBe('REPLACE');
    fireEvent.change(searchBox(), { target: { value: 'mcp SERVER' } });
    expect(screen.getByRole('article', { name: 'Setting up an MCP server' })).toBeTruthy();
    await waitFor(() => expect(where()).toBe('/blog?search=mcp+SERVER'));
    expect(searchBox().value).toBe('mcp SERVER');
    expect(calls).toHaveLength(1);
  });

  it('has category chips as links with aria-current; the active one links back to All, with the hint', async () => {
    await show('/blog?page=2&search=er');
    expect(chip('All').getAttribute('aria-current')).toBe('true');
    expect(chip('MCP').getAttribute('href')).toBe('/blog?search=er&category=MCP');
    fireEvent.click(chip('MCP'));
    await waitFor(() => expect(where()).toBe('/blog?search=er&category=MCP'));
    expect(chip('MCP').getAttribute('aria-current')).toBe('true');
    expect(chip('All').hasAttribute('aria-current')).toBe(false);
    expect(screen.getByText('Click "MCP" again to clear filter')).toBeTruthy();
    // Only post 7 has the MCP tag; none has the MCP category.
    expect(screen.getByRole('article', { name: 'Post number 7' })).toBeTruthy();
    expect(screen.getByText('1 Article')).toBeTruthy();
    expect(chip('MCP').getAttribute('href')).toBe('/blog?search=er');
    fireEvent.click(chip('Tutorial'));
    await waitFor(() => expect(screen.getByText('8 Articles')).toBeTruthy());
    fireEvent.click(chip('Tutorial'));
    await waitFor(() => expect(chip('All').getAttribute('aria-current')).toBe('true'));
    expect(screen.queryByText(/again to clear filter/)).toBeNull();
    expect(screen.getByText('16 Articles')).toBeTruthy();
    expect(
      screen.getAllByRole('link', { current: false }).filter((a) => a.classList.contains('blog-chip')),
    ).toHaveLength(18);
    expect(searchBox().value).toBe('er');
  });

  it('puts the address text back in the box on back and forward', async () => {
    const { router } = await show('/blog');
    fireEvent.click(chip('AI Basics'));
    await waitFor(() => expect(where()).toBe('/blog?category=AI+Basics'));
    fireEvent.change(searchBox(), { target: { value: 'number 4' } });
    await waitFor(() => expect(where()).toBe('/blog?search=number+4&category=AI+Basics'));
    await act(() => router.navigate(-1));
    await waitFor(() => expect(where()).toBe('/blog'));
    expect(searchBox().value).toBe('');
    expect(screen.getByText('16 Articles')).toBeTruthy();
    await act(() => router.navigate(1));
    await waitFor(() => expect(searchBox().value).toBe('number 4'));
    expect(screen.getByText('1 Article')).toBeTruthy();
  });

  it('shows the empty state; Clear Filters links to the plain list and empties the box', async () => {
    await show('/blog?category=AI+Legal');
    fireEvent.change(searchBox(), { target: { value: 'zzz' } });
    expect(screen.getByRole('heading', { name: 'No blog posts found' })).toBeTruthy();
    expect(
      screen.getByText("Try adjusting your search terms or filters to find the posts you're looking for."),
    ).toBeTruthy();
    const clear = screen.getByRole('link', { name: 'Clear Filters' });
    expect(clear.getAttribute('href')).toBe('/blog');
    fireEvent.click(clear);
    await waitFor(() => expect(screen.getByText('16 Articles')).toBeTruthy());
    expect(searchBox().value).toBe('');
    expect(where()).toBe('/blog');
  });

  it('applies text typed into the server HTML before the code ran, once it hydrates', async () => {
    const { api } = fakeApi(() => listAnswer(16));
    const { value: data } = unwrap(await loadBlogList({ context: { api } }));
    const container = document.createElement('div');
    document.body.append(container);
    container.innerHTML = renderToString(
      <RouterProvider router={routeRouter(BlogListRoute, '/blog', '/blog?category=Tutorial', api, { data })} />,
    );
    (container.querySelector('input[name="search"]') as HTMLInputElement).value = 'token';
    const router = routeRouter(BlogListRoute, '/blog', '/blog?category=Tutorial', api, { data });
    render(<RouterProvider router={router} />, { container, hydrate: true });
    await waitFor(() => expect(where()).toBe('/blog?search=token&category=Tutorial'));
    expect(searchBox().value).toBe('token');
    expect(screen.getByText('1 Article')).toBeTruthy();
    expect(screen.getByRole('article', { name: 'Post number 5' })).toBeTruthy();
  });

  it('shows the fallback sample post when there are no posts or the API answers with an error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const answer of [listAnswer(0), { status: 500, body: { success: false } }]) {
      const view = renderRoute(BlogListRoute, '/blog', '/blog', fakeApi(() => answer).api);
      expect(await screen.findByRole('article', { name: FALLBACK_POST.title })).toBeTruthy();
      expect(screen.getByText('1 Article')).toBeTruthy();
      view.unmount();
    }
  });

  it('shows "Error Loading Blog" with the message and a Try Again that reloads when the request fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    renderRoute(BlogListRoute, '/blog', '/blog?category=MCP', fakeApi(() => new TypeError('Failed to fetch')).api);
    expect(await screen.findByRole('heading', { name: 'Error Loading Blog' })).toBeTruthy();
    expect(screen.getByText('Failed to fetch')).toBeTruthy();
    const again = screen.getByRole('link', { name: 'Try Again' });
    expect(again.getAttribute('href')).toBe('/blog?category=MCP');
    fireEvent.click(again);
    expect(reload).toHaveBeenCalled();
  });

  it('shows "Image failed to load" when a card image fails', async () => {
    const docs = makeDocs(3);
    docs[1] = { ...docs[1], featured_image: '/broken.png', featured_image_alt: 'Broken' };
    renderRoute(BlogListRoute, '/blog', '/blog', fakeApi(() => ({ status: 200, body: docs })).api);
    fireEvent.error(await screen.findByAltText('Broken'));
    expect(screen.getByText('Image failed to load')).toBeTruthy();
  });
});

describe('BlogList head', () => {
  it('titles page 1, links the next page and lists the first 10 posts as Blog data', async () => {
    const head = await headOf('/blog');
    expect(head.title).toBe('AI Tools Blog | Expert Insights on AI Tools & Automation');
    expect(head.links).toEqual([{ rel: 'next', href: '/blog?page=2' }]);
    expect(head.meta).toContainEqual({ property: 'og:type', content: 'website' });
    expect((head.jsonLd as { blogPost: unknown[] }).blogPost).toHaveLength(10);
  });

  it('takes the page from the address; a filtered view keeps its filters in prev/next and names /blog canonical', async () => {
    const page2 = await headOf('/blog?page=2');
    expect(page2.title).toBe('AI Tools Blog - Page 2 of 2 | AI Tools Directory');
    expect(page2.links).toEqual([{ rel: 'prev', href: '/blog' }]);
    const filtered = await headOf('/blog?category=Tutorial&page=2', 80);
    expect(filtered.links).toEqual([
      { rel: 'prev', href: '/blog?category=Tutorial' },
      { rel: 'next', href: '/blog?category=Tutorial&page=3' },
    ]);
    expect(filtered.canonical).toMatch(/^https:\/\/[^/]+\/blog$/);
  });

  it('keeps the error page out of search engines', () => {
    const head = BlogListRoute.head!({
      data: { status: 'error', message: 'down' },
      url: new URL('https://example.test/blog'),
      params: {},
    });
    expect(head.title).toBe('Error Loading Blog | AI Tools Blog');
    expect(head.robots).toBe('noindex,nofollow');
  });
});

describe('loadBlogList', () => {
  it('gives every post without its body, from the API in the context', async () => {
    const { api, calls } = fakeApi(() => ({ status: 200, body: { data: makeDocs(2) } }));
    const { value, status } = unwrap(await loadBlogList({ context: { api } }));
    expect(status).toBe(200);
    const posts = (value as Extract<BlogListData, { status: 'loaded' }>).posts;
    expect(posts.map((p) => p.slug)).toEqual(['post-0', 'post-1']);
    expect(posts[0]).not.toHaveProperty('content');
    expect(calls).toEqual(['/api/blog/public/posts']);
  });

  it('keeps a successful list for 5 minutes per API (one browser page), never across APIs (server requests)', async () => {
    const first = fakeApi(() => listAnswer(2));
    await loadBlogList({ context: { api: first.api } });
    await loadBlogList({ context: { api: first.api } });
    expect(first.calls).toHaveLength(1);
    const second = fakeApi(() => listAnswer(2));
    await loadBlogList({ context: { api: second.api } });
    expect(second.calls).toHaveLength(1);
  });

  it('answers an unreachable API with the error state and HTTP 500', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const result = unwrap(await loadBlogList({ context: { api: fakeApi(() => new Error('down')).api } }));
    expect(result).toEqual({ value: { status: 'error', message: 'down' }, status: 500 });
  });

  it('needs no new data for another query of /blog, but does for another address', () => {
    const args = (from: string, to: string) => ({
      currentUrl: new URL(from, 'https://x'),
      nextUrl: new URL(to, 'https://x'),
      currentParams: {},
      nextParams: {},
      defaultShouldRevalidate: true,
    });
    expect(BlogListRoute.shouldRevalidate!(args('/blog', '/blog?page=2'))).toBe(false);
    expect(BlogListRoute.shouldRevalidate!(args('/blog?search=a', '/blog?search=ab'))).toBe(false);
    expect(BlogListRoute.shouldRevalidate!(args('/blog/x', '/blog'))).toBe(true);
    // "Try again" (revalidate) of the same address.
    expect(BlogListRoute.shouldRevalidate!(args('/blog?page=2', '/blog?page=2'))).toBe(true);
  });
});
