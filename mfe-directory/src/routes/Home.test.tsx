import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { renderRoute } from '@aitools/platform/testing';
import type { ToolSummary } from '@aitools/contracts/tools';
import HomeRoute from './Home';
import { readToolQuery } from '@aitools/contracts/toolQuery';
import { forgetToolList, LOCAL_QUERY_LIMIT, useToolListStore } from '../features/tools/stores/toolListStore';
import { pageOf, type ToolList } from '../features/tools/api/loadTools';
import { comboKey, rememberPage } from '../features/listing/pageMemory';

// Every change runs the route's loader: on a busy machine that takes longer than Testing Library's 1 s default.
configure({ asyncUtilTimeout: 5000 });

const CATS = ['Development', 'AI Assistants', 'MCP Servers'];
const makeTools = (n: number): ToolSummary[] =>
  Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    name: `Tool ${String(i + 1).padStart(3, '0')}`,
    slug: `tool-${i + 1}`,
    description: i === 0 ? 'The special one' : `Description ${i + 1}`,
    category: CATS[i % 3],
    tags: ['a', 'b', 'c', 'd', 'e'],
    pricing: i % 2 ? 'Free' : 'Paid, Freemium',
    website: `https://tool${i + 1}.test`,
    popularityScore: 100 - i,
    ...(i % 3 === 2 ? { mcpBadge: 'Official' as const } : {}),
  }));

let router: ReturnType<typeof renderRoute>['router'];
const currentUrl = () => router.state.location.pathname + router.state.location.search;

/** The page as the server renders it for `url`; `whole`: the browser already holds the whole (small) list. */
function renderHome(url = '/', list?: ToolList | null, { whole = true } = {}) {
  if (list && whole) useToolListStore.setState({ list });
  const data = list ? pageOf(list, readToolQuery(new URL(url, 'https://localhost').searchParams)) : list;
  const result = renderRoute(HomeRoute, {
    path: '/',
    url,
    data,
    routes: [{ path: '/tool/:slug', element: <p>detail page</p> }],
  });
  router = result.router;
  return result;
}

/** GET /api/tools/query's answer over `tools` (the API ranks a search; a plain contains-match stands in for it here). */
const pageAnswer = (tools: ToolSummary[], catalogue: number, url: string) => {
  const page = pageOf({ tools, source: 'api' }, readToolQuery(new URL(url).searchParams));
  return new Response(JSON.stringify({ success: true, ...page, catalogue }), { status: 200 });
};

/** An API answering each query over `tools`; its fetch. */
function stubQueryApi(tools: ToolSummary[]) {
  const fetch = vi.fn(async (input: RequestInfo | URL) =>
    pageAnswer(tools, tools.length, new URL(String(input), 'https://localhost').href),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

const cardNames = () =>
  screen
    .queryAllByRole('heading', { level: 2 })
    .map((h) => h.textContent)
    .filter((t) => t?.startsWith('Tool '));

beforeEach(() => {
  forgetToolList();
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
});
afterEach(() => vi.unstubAllGlobals());

describe('Home with server data', () => {
  const data: ToolList = { tools: makeTools(60), source: 'api' };

  it('renders the first 24 cards, counts and pagination', () => {
    renderHome('/', data);
    expect(cardNames()).toHaveLength(24);
    expect(screen.getByText('60 tools found')).toBeTruthy();
    expect(screen.getByText('Showing 1 to 24 of 60 results')).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Pagination' });
    expect(
      within(nav)
        .getAllByRole('link', { name: /^Page / })
        .map((b) => [b.textContent, b.getAttribute('href')]),
    ).toEqual([
      ['1', '/'],
      ['2', '/?page=2'],
      ['3', '/?page=3'],
    ]);
    expect(within(nav).getByText('← Previous').getAttribute('aria-disabled')).toBe('true');
    expect(within(nav).getByRole('link', { name: 'Next →' }).getAttribute('href')).toBe('/?page=2');
    expect(screen.getByPlaceholderText('Search tools and servers...')).toBeTruthy();
    expect(screen.getAllByRole('link', { name: /Feature your AI tool here!/ })[0].getAttribute('href')).toBe(
      '/advertise',
    );
    expect(screen.getByRole('link', { name: 'Contact Our AI Tools Experts' }).getAttribute('href')).toBe('/contact');
    expect(screen.getByRole('link', { name: 'Read the AI Tools Blog' }).getAttribute('href')).toBe('/blog');
  });

  it('card: first pricing value, letter tile, 3 tags + more, View Details and Visit Site in a new tab', () => {
    renderHome('/', data);
    const card = screen.getByRole('link', { name: 'Tool 001' }).closest('article')!;
    expect(within(card).getByText('Paid')).toBeTruthy();
    expect(within(card).getByText('+2 more')).toBeTruthy();
    expect(within(card).getByText('T').getAttribute('aria-hidden')).toBe('true');
    const visit = within(card).getByRole('link', { name: /Visit Site/ });
    expect(visit.getAttribute('target')).toBe('_blank');
    expect(visit.getAttribute('rel')).toContain('noopener');
    expect(
      within(card)
        .getByRole('link', { name: /View Details/ })
        .getAttribute('href'),
    ).toBe('/tool/tool-1');
  });

  it('reads the query: category, search and page, and clamps the page', async () => {
    renderHome('/?category=Development&page=9', data);
    expect(screen.getByText('20 tools found')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Development' }).getAttribute('aria-current')).toBe('true');
    expect(screen.getByText('Click "Development" again to clear filter')).toBeTruthy();
    // 20 results fit one page: no pagination bar, page clamped to 1 and the URL corrected
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
    await waitFor(() => expect(currentUrl()).toBe('/?category=Development'));
  });

  it('search filters as you type, writes the URL and returns to page 1', async () => {
    stubQueryApi(data.tools);
    renderHome('/?page=2', data);
    fireEvent.change(screen.getByPlaceholderText('Search tools and servers...'), { target: { value: 'special' } });
    await waitFor(() => expect(cardNames()).toEqual(['Tool 001']));
    expect(currentUrl()).toBe('/?search=special');
  });

  it('with the whole list held, a search still asks the API (its ranking is the one order everywhere), the typed text kept', async () => {
    const fetch = stubQueryApi(data.tools);
    renderHome('/?page=2', data);
    const box = screen.getByPlaceholderText('Search tools and servers...') as HTMLInputElement;
    fireEvent.change(box, { target: { value: 'special' } });
    expect(box.value).toBe('special');
    await waitFor(() => expect(cardNames()).toEqual(['Tool 001']));
    expect(screen.getByText('Showing 1 to 1 of 1 results')).toBeTruthy();
    expect(currentUrl()).toBe('/?search=special');
    expect(fetch.mock.calls.map(([u]) => String(u))).toEqual([
      expect.stringContaining('/api/tools/query?search=special'),
    ]);
    fireEvent.change(box, { target: { value: '' } });
    await waitFor(() => expect(cardNames()).toHaveLength(24));
    expect(currentUrl()).toBe('/');
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('shows Best match while a search is active and the sort was left alone; a chosen sort stays', async () => {
    stubQueryApi(data.tools);
    renderHome('/', data);
    const sort = () => screen.getByRole('combobox', { name: 'Sort by' }) as HTMLSelectElement;
    const shown = () => sort().selectedOptions[0].textContent;
    expect(shown()).toBe('Most Popular');
    // The default's option sends no value: a form sent without JavaScript gets Best match once a search is typed.
    expect(sort().value).toBe('');
    const box = screen.getByPlaceholderText('Search tools and servers...');
    fireEvent.change(box, { target: { value: 'special' } });
    await waitFor(() => expect(shown()).toBe('Best match'));
    expect(sort().value).toBe('');
    await waitFor(() => expect(currentUrl()).toBe('/?search=special'));
    fireEvent.change(box, { target: { value: '' } });
    await waitFor(() => expect(shown()).toBe('Most Popular'));
    fireEvent.change(sort(), { target: { value: 'alphabetical' } });
    await waitFor(() => expect(currentUrl()).toBe('/?sort=alphabetical'));
    fireEvent.change(box, { target: { value: 'tool' } });
    await waitFor(() => expect(currentUrl()).toBe('/?search=tool&sort=alphabetical'));
    expect(shown()).toBe('Alphabetical (A-Z)');
  });

  it('category click filters; clicking it again resets to All', async () => {
    renderHome('/', data);
    const categories = screen.getByRole('list', { name: 'Category' });
    fireEvent.click(within(categories).getByRole('link', { name: 'MCP Servers' }));
    expect(await screen.findByText('20 tools found')).toBeTruthy();
    expect(currentUrl()).toBe('/?category=MCP+Servers');
    fireEvent.click(within(categories).getByRole('link', { name: 'MCP Servers' }));
    expect(await screen.findByText('60 tools found')).toBeTruthy();
    expect(currentUrl()).toBe('/');
  });

  it('type bar filters by the directory reading; the active type clicked again resets', async () => {
    renderHome('/', data);
    const types = screen.getByRole('list', { name: 'Type' });
    fireEvent.click(within(types).getByRole('link', { name: 'MCP Servers' }));
    expect(await screen.findByText('20 tools found')).toBeTruthy();
    fireEvent.click(within(types).getByRole('link', { name: 'AI Tool' }));
    expect(await screen.findByText('40 tools found')).toBeTruthy();
    expect(currentUrl()).toContain('type=ai-tool');
    fireEvent.click(within(screen.getByRole('list', { name: 'Type' })).getByRole('link', { name: 'AI Tool' }));
    await waitFor(() => expect(currentUrl()).not.toContain('type='));
  });

  it('paginates, remembers the page per combination and restores it', async () => {
    renderHome('/', data);
    fireEvent.click(screen.getByRole('link', { name: 'Page 3' }));
    expect(await screen.findByText('Showing 49 to 60 of 60 results')).toBeTruthy();
    expect(currentUrl()).toBe('/?page=3');
    fireEvent.click(screen.getByRole('link', { name: 'Development' }));
    await waitFor(() => expect(currentUrl()).toBe('/?category=Development'));
    fireEvent.click(screen.getByRole('link', { name: 'Development' }));
    await waitFor(() => expect(currentUrl()).toBe('/?page=3'));
  });

  it('restores a remembered page when / is opened without a page', async () => {
    rememberPage(comboKey('All', 'all', ''), 2);
    renderHome('/', data);
    await waitFor(() => expect(currentUrl()).toBe('/?page=2'));
    expect(await screen.findByText('Showing 25 to 48 of 60 results')).toBeTruthy();
  });

  it('sort and page size change the view and go back to page 1', async () => {
    renderHome('/?page=2', data);
    fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'alphabetical' } });
    await waitFor(() => expect(currentUrl()).toBe('/?sort=alphabetical'));
    fireEvent.change(screen.getByLabelText('Per page'), { target: { value: '12' } });
    await waitFor(() => expect(cardNames()).toHaveLength(12));
    expect(screen.getByText('Showing 1 to 12 of 60 results')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'pricing' } });
    await waitFor(() => expect(cardNames()[0]).toBe('Tool 002')); // Free before Paid
  });

  it('makes every chip a link to the query it stands for, so it works without JavaScript', () => {
    renderHome('/?category=Development&search=git', data);
    const categories = screen.getByRole('list', { name: 'Category' });
    expect(within(categories).getByRole('link', { name: 'AI Assistants' }).getAttribute('href')).toBe(
      '/?category=AI+Assistants&search=git',
    );
    // the active chip links to the list without it
    expect(within(categories).getByRole('link', { name: 'Development' }).getAttribute('href')).toBe('/?search=git');
    const types = screen.getByRole('list', { name: 'Type' });
    expect(within(types).getByRole('link', { name: 'MCP Servers' }).getAttribute('href')).toBe(
      '/?category=Development&type=mcp-servers&search=git',
    );
    const form = screen.getByRole('search');
    expect(form.getAttribute('method')).toBe('get');
    expect(form.getAttribute('action')).toBe('/');
    expect((screen.getByPlaceholderText('Search tools and servers...') as HTMLInputElement).name).toBe('search');
  });

  it('shows the Free and Paid filters from Explore More as active', () => {
    renderHome('/?type=free', data);
    const types = screen.getByRole('list', { name: 'Type' });
    expect(within(types).getByRole('link', { name: 'Free' }).getAttribute('aria-current')).toBe('true');
    expect(within(types).getByRole('link', { name: 'All' }).getAttribute('aria-current')).toBeNull();
  });

  it('shows the empty state and clears filters', async () => {
    renderHome('/?search=nothing-matches', data);
    expect(screen.getByRole('heading', { name: 'No AI tools found' })).toBeTruthy();
    // Without the code, the link goes to the whole directory (Best match does not outlive the search).
    expect(screen.getByRole('link', { name: 'Clear Filters' }).getAttribute('href')).toBe('/');
    expect(
      screen.getByText("Try adjusting your search terms or filters to find the AI tools you're looking for."),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Clear Filters' }));
    await waitFor(() => expect(cardNames()).toHaveLength(24));
    expect(currentUrl()).toBe('/');
  });

  it('offers the suggestions of a search that found nothing as links', () => {
    renderHome('/?search=Toal', { tools: makeTools(3), source: 'api' });
    expect(screen.getByRole('heading', { name: 'No AI tools found' })).toBeTruthy();
    expect(screen.getByText(/Did you mean/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Tool' }).getAttribute('href')).toBe('/?search=Tool');
  });

  it('FAQ: 20 native disclosures that open independently; the email becomes a mail link on click', async () => {
    renderHome('/', data);
    const faq = document.getElementById('faq')!;
    const entries = [...faq.querySelectorAll('details')];
    expect(entries).toHaveLength(20);
    // No shared name: the browser lets several stay open (the tool page's accordion has one).
    expect(entries.every((d) => !d.hasAttribute('name') && !d.open)).toBe(true);
    entries[0].open = true;
    entries[1].open = true;
    expect(entries.filter((d) => d.open)).toHaveLength(2);
    const [hidden] = within(faq).getAllByRole('link', {
      name: 'Show email address hello[at]aitoolsdirectory[dot]example',
    });
    expect(hidden.textContent).toBe('hello[at]aitoolsdirectory[dot]example');
    // Without script it leads to the contact page, which gives the address.
    expect(hidden.getAttribute('href')).toBe('/contact');
    expect(faq.innerHTML).not.toContain('hello@');
    fireEvent.click(hidden);
    const link = within(faq).getByRole('link', { name: 'hello@aitoolsdirectory.example' });
    expect(link.getAttribute('href')).toBe('mailto:hello@aitoolsdirectory.example');
    await waitFor(() => expect(document.activeElement).toBe(link));
  });

  it('navigates in-app from a card and saves the scroll position', async () => {
    renderHome('/?page=2', data);
    const card = screen.getByRole('link', { name: 'Tool 025' }).closest('article')!;
    fireEvent.click(within(card).getByText('Description 25'));
    expect(await screen.findByText('detail page')).toBeTruthy();
    expect(JSON.parse(localStorage.getItem('directoryScrollPositions')!)['/?page=2']).toMatchObject({ x: 0, y: 0 });
  });
});

describe('Home without server data', () => {
  it('has the loading screen for navigations (no counter while none is known), then renders the API list from its loader', async () => {
    const Pending = HomeRoute.Pending!;
    render(<Pending params={{}} />);
    expect(screen.getByText('Loading AI tools directory...')).toBeTruthy();
    expect(screen.queryByText(/tools loaded/)).toBeNull();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({
              success: true,
              ...pageOf({ tools: makeTools(30), source: 'api' }, readToolQuery(new URLSearchParams())),
            }),
            { status: 200 },
          ),
      ),
    );
    renderHome('/');
    expect(await screen.findByText('30 tools found')).toBeTruthy();
  });

  it('uses the 5 built-in tools when the call fails, logging the status', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('oops', { status: 500 })),
    );
    renderHome('/');
    expect(await screen.findByText('5 tools found')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'ChatGPT' })).toBeTruthy();
    expect(log).toHaveBeenCalledWith('HTTP error! status: 500');
    log.mockRestore();
  });

  it('uses the built-in tools for an invalid answer', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ hello: 'world' }), { status: 200 })),
    );
    renderHome('/');
    expect(await screen.findByText('5 tools found')).toBeTruthy();
    expect(log).toHaveBeenCalledWith('API response format is invalid');
    log.mockRestore();
  });

  it('shows the error state when loading rejects, and Try Again resets filters and reloads', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const loader = await import('../features/tools/api/loadTools');
    const spy = vi.spyOn(loader, 'loadToolPage').mockRejectedValueOnce(new Error('boom'));
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({
              success: true,
              ...pageOf({ tools: makeTools(3), source: 'api' }, readToolQuery(new URLSearchParams())),
            }),
            { status: 200 },
          ),
      ),
    );
    renderHome('/?category=Development&search=x');
    expect(await screen.findByRole('heading', { name: 'Error Loading AI Tools' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('3 tools found')).toBeTruthy();
    expect(currentUrl()).toBe('/');
    spy.mockRestore();
    log.mockRestore();
  });
  it('Try Again asks again when the address has no filters to reset', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const loader = await import('../features/tools/api/loadTools');
    const spy = vi.spyOn(loader, 'loadToolPage').mockRejectedValueOnce(new Error('boom'));
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({
              success: true,
              ...pageOf({ tools: makeTools(3), source: 'api' }, readToolQuery(new URLSearchParams())),
            }),
            { status: 200 },
          ),
      ),
    );
    renderHome('/');
    fireEvent.click(await screen.findByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('3 tools found')).toBeTruthy();
    expect(spy).toHaveBeenCalledTimes(2);
    spy.mockRestore();
    log.mockRestore();
  });
});

describe('Home at catalogue scale', () => {
  // The server's first page of a catalogue too large to hold.
  const firstPage = (tools: ToolSummary[]) => ({
    ...pageOf({ tools, source: 'api' }, readToolQuery(new URLSearchParams())),
    catalogue: LOCAL_QUERY_LIMIT + 1,
  });

  /** / of a catalogue too large to hold, served from 60 tools by an API that answers each query; its fetch. */
  const openLargeCatalogue = () => {
    const tools = makeTools(60);
    const fetch = vi.fn(async (input: RequestInfo | URL) =>
      pageAnswer(tools, LOCAL_QUERY_LIMIT + 1, new URL(String(input), 'https://localhost').href),
    );
    vi.stubGlobal('fetch', fetch);
    router = renderRoute(HomeRoute, { path: '/', url: '/', data: firstPage(tools) }).router;
    return fetch;
  };

  it('queries the API page by page for a catalogue too large to hold, never fetching the whole list', async () => {
    const fetch = openLargeCatalogue();
    const search = screen.getByPlaceholderText('Search tools and servers...');
    fireEvent.focus(search);
    fireEvent.change(search, { target: { value: 'special' } });
    await waitFor(() => expect(cardNames()).toEqual(['Tool 001']));
    const asked = fetch.mock.calls.map(([u]) => String(u));
    expect(asked.some((u) => u.includes('/api/tools/query?search=special'))).toBe(true);
    expect(asked.some((u) => /\/api\/tools(\?|$)/.test(u))).toBe(false);
  });

  it("aborts a stale request: an older answer arriving late never replaces a newer keystroke's results", async () => {
    const tools = makeTools(60);
    // Each request waits to be answered; this fetch (unlike the browser's) answers even after an abort.
    const asked: { url: string; signal: AbortSignal; answer: () => Response }[] = [];
    const fetch = vi.fn(
      (input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((resolve) => {
          const url = new URL(String(input), 'https://localhost').href;
          asked.push({
            url,
            signal: init!.signal!,
            answer: () => {
              const res = pageAnswer(tools, LOCAL_QUERY_LIMIT + 1, url);
              resolve(res);
              return res;
            },
          });
        }),
    );
    vi.stubGlobal('fetch', fetch);
    router = renderRoute(HomeRoute, { path: '/', url: '/', data: firstPage(tools) }).router;
    const box = screen.getByPlaceholderText('Search tools and servers...') as HTMLInputElement;
    fireEvent.change(box, { target: { value: 'Description' } });
    await waitFor(() => expect(asked).toHaveLength(1));
    fireEvent.change(box, { target: { value: 'special' } });
    await waitFor(() => expect(asked).toHaveLength(2));
    // The typed text shows at once; the older request is aborted; the page on screen waits for the newer one.
    expect(box.value).toBe('special');
    expect(asked[0].url).toContain('search=Description');
    expect(asked[0].signal.aborted).toBe(true);
    expect(asked[1].signal.aborted).toBe(false);
    expect(cardNames()).toHaveLength(24);
    asked[1].answer();
    await waitFor(() => expect(cardNames()).toEqual(['Tool 001']));
    expect(currentUrl()).toBe('/?search=special');
    // The older answer arrives late and is read through: it changes nothing.
    const late = vi.spyOn(asked[0].answer(), 'json');
    await waitFor(() => expect(late).toHaveBeenCalledTimes(1));
    await act(() => late.mock.results[0]!.value as Promise<unknown>);
    expect(cardNames()).toEqual(['Tool 001']);
    expect(screen.getByText('1 tool found')).toBeTruthy();
    expect(currentUrl()).toBe('/?search=special');
    expect(box.value).toBe('special');
  });

  it('fetches a small catalogue whole on first use of the controls, then answers filters without requests', async () => {
    const tools = makeTools(60);
    const fetch = vi.fn(async () => new Response(JSON.stringify({ success: true, data: tools }), { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    renderHome('/', { tools, source: 'api' }, { whole: false });
    fireEvent.focus(screen.getByPlaceholderText('Search tools and servers...'));
    await waitFor(() => expect(useToolListStore.getState().list?.tools).toHaveLength(60));
    expect(fetch).toHaveBeenCalledTimes(1);
    fireEvent.click(within(screen.getByRole('list', { name: 'Category' })).getByRole('link', { name: 'MCP Servers' }));
    expect(await screen.findByText('20 tools found')).toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('Home head', () => {
  it('sets title, canonical, robots and an ItemList of the first 50 tools', async () => {
    renderHome('/', { tools: makeTools(60), source: 'api' });
    await waitFor(() => expect(document.title).toContain('AI Tools Directory'));
    expect(document.head.querySelector('link[rel="canonical"]')!.getAttribute('href')).toBe('https://localhost');
    expect(document.head.querySelector('meta[name="robots"]')!.getAttribute('content')).toBe('index,follow');
    const ld = JSON.parse(document.head.querySelector('script[type="application/ld+json"]')!.textContent!);
    expect(ld['@type']).toBe('ItemList');
    expect(ld.itemListElement).toHaveLength(50);
    expect(ld.itemListElement[0]).toMatchObject({
      position: 1,
      name: 'Tool 001',
      url: 'https://localhost/tool/tool-1',
    });
  });
});
