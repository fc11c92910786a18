import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, waitFor } from '@testing-library/react';
import { defineRoute } from '@aitools/platform';
import { renderRoute } from '@aitools/platform/testing';
import { comboKey, rememberedPage, rememberPage } from '../pageMemory';
import { saveScrollPosition } from '../scrollMemory';
import { listingControls, type ListingControls } from '../listingControls';
import { useHomeQuery } from './useHomeQuery';
import { useArrival } from './useArrival';

/** The hooks as Home uses them, on a page at `url`; `current` holds the latest render's values. */
function mount(
  url: string,
  { ready = true, loader }: { ready?: boolean; loader?: (args: { request: Request }) => Promise<null> } = {},
) {
  const current = {} as {
    listing: ReturnType<typeof useHomeQuery>;
    controls: ListingControls;
    box: () => HTMLInputElement;
    sort: () => HTMLSelectElement;
  };
  function Probe() {
    const form = useRef<HTMLFormElement>(null);
    const grid = useRef<HTMLDivElement>(null);
    const listing = useHomeQuery(form);
    const field = <T,>(name: string) => form.current!.elements.namedItem(name) as T;
    const controls = listingControls(listing, () => field<HTMLInputElement>('search'));
    const { query } = listing;
    useArrival({
      ready,
      memoryKey: comboKey(query.category, query.type, query.search),
      params: listing.params,
      grid,
      writeQuery: listing.writeQuery,
    });
    Object.assign(current, {
      listing,
      controls,
      box: () => field<HTMLInputElement>('search'),
      sort: () => field<HTMLSelectElement>('sort'),
    });
    return (
      <form ref={form}>
        <div ref={grid}>
          <input name="search" defaultValue={query.search} />
          <select name="sort" defaultValue={query.sort}>
            <option value="popularity">Most Popular</option>
            <option value="alphabetical">Alphabetical</option>
          </select>
        </div>
      </form>
    );
  }
  const { router } = renderRoute(defineRoute({ Component: Probe, loader }), { path: '/', url, data: null });
  const address = () => router.state.location.pathname + router.state.location.search;
  return { current, router, address };
}

/** The visitor types `text` into the search box. */
function type(current: ReturnType<typeof mount>['current'], text: string) {
  current.box().value = text;
  current.controls.onSearch(text);
}

beforeEach(() => {
  localStorage.clear();
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  vi.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => (cb(0), 0));
});
afterEach(() => vi.restoreAllMocks());

describe('useHomeQuery: the query in the address', () => {
  it('reads the address and writes in place (replace), leaving defaults out', async () => {
    const { current, router, address } = mount('/?category=Development&page=2');
    expect(current.listing.query).toMatchObject({ category: 'Development', page: 2, type: 'all', search: '' });
    act(() => current.listing.writeQuery({ category: 'All', page: 1 }));
    await waitFor(() => expect(address()).toBe('/'));
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('builds each write on the last one written, before the router has committed it', async () => {
    const { current, address } = mount('/');
    act(() => {
      current.listing.writeQuery({ search: 'git' });
      current.listing.writeQuery({ page: 2 });
    });
    await waitFor(() => expect(address()).toBe('/?search=git&page=2'));
  });

  it('shows the query being loaded while its navigation is pending', async () => {
    let arrive = () => {};
    const loader = () => new Promise<null>((resolve) => (arrive = () => resolve(null)));
    const { current, address } = mount('/', { loader });
    act(() => current.controls.onCategory('Development'));
    await waitFor(() => expect(current.listing.query.category).toBe('Development'));
    expect(current.listing.pending).toBe(true);
    expect(address()).toBe('/');
    await act(async () => arrive());
    await waitFor(() => expect(address()).toBe('/?category=Development'));
    expect(current.listing.pending).toBe(false);
  });

  it('keeps what was typed when an older address of its own arrives after a newer keystroke', async () => {
    // The page for "github" waits; any other comes at once.
    let arrive = () => {};
    const loader = ({ request }: { request: Request }) =>
      new Promise<null>((resolve) =>
        new URL(request.url).search === '?search=github' ? (arrive = () => resolve(null)) : resolve(null),
      );
    const { current, router, address } = mount('/', { loader });
    // The router commits "git" and, before React renders that, the visitor types on.
    const unsubscribe = router.subscribe((state) => {
      if (state.location.search === '?search=git' && state.navigation.state === 'idle')
        queueMicrotask(() => type(current, 'github'));
    });
    act(() => type(current, 'git'));
    await waitFor(() => expect(current.listing.params.get('search')).toBe('git'));
    unsubscribe();
    // The keystroke made after that commit is on its way (its page waits): "git" was rendered after it.
    await waitFor(() => expect(router.state.navigation.location?.search).toBe('?search=github'));
    expect(current.box().value).toBe('github');
    expect(current.listing.latest().search).toBe('github');
    await act(async () => arrive());
    await waitFor(() => expect(address()).toBe('/?search=github'));
    expect(current.box().value).toBe('github');
  });

  it('writes an address from elsewhere (Back, a link) into the search box and the selects', async () => {
    const { current, router, address } = mount('/');
    act(() => type(current, 'cla'));
    await waitFor(() => expect(address()).toBe('/?search=cla'));
    expect(current.box().value).toBe('cla');
    await act(() => router.navigate('/?search=cursor&sort=alphabetical'));
    await waitFor(() => expect(current.box().value).toBe('cursor'));
    expect(current.sort().value).toBe('alphabetical');
    // The next write builds on it.
    act(() => current.listing.writeQuery({ page: 2 }));
    await waitFor(() => expect(address()).toBe('/?search=cursor&sort=alphabetical&page=2'));
  });
});

describe('listingControls: page memory per combination', () => {
  it('remembers the page of a combination and opens it there again; sort and size start at page 1 and forget it', async () => {
    const { current, address } = mount('/?category=Development');
    act(() => current.controls.onPage(3));
    await waitFor(() => expect(address()).toBe('/?category=Development&page=3'));
    expect(rememberedPage(comboKey('Development', 'all', ''))).toBe(3);
    // Clicking the active category again clears it; a combination never visited opens on page 1.
    act(() => current.controls.onCategory('Development'));
    await waitFor(() => expect(address()).toBe('/'));
    act(() => current.controls.onCategory('Development'));
    await waitFor(() => expect(address()).toBe('/?category=Development&page=3'));
    act(() => current.controls.onSort('alphabetical'));
    await waitFor(() => expect(address()).toBe('/?category=Development&sort=alphabetical'));
    expect(rememberedPage(comboKey('Development', 'all', ''))).toBeNull();
  });

  it('remembers the page per search as typed', async () => {
    rememberPage(comboKey('All', 'all', 'git'), 2);
    const { current, address } = mount('/');
    act(() => type(current, 'git'));
    await waitFor(() => expect(address()).toBe('/?search=git&page=2'));
  });

  it('clears filters and the search box at once', async () => {
    const { current, address } = mount('/?category=Development&type=mcp&search=git');
    act(() => current.controls.clearFilters());
    expect(current.box().value).toBe('');
    await waitFor(() => expect(address()).toBe('/'));
  });
});

describe('useArrival: where the visitor lands', () => {
  it('opens an address without a page on the remembered page', async () => {
    rememberPage(comboKey('All', 'all', ''), 4);
    const { address } = mount('/');
    await waitFor(() => expect(address()).toBe('/?page=4'));
  });

  it('restores the saved scroll position on Back (a POP), once', async () => {
    saveScrollPosition('/?page=2', 0, 1234);
    mount('/?page=2');
    await waitFor(() => expect(window.scrollTo).toHaveBeenCalledWith(0, 1234));
  });

  it('scrolls to the grid for an address with a query, and waits for the list', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      mount('/?category=Development', { ready: false });
      act(() => vi.advanceTimersByTime(500));
      expect(window.scrollTo).not.toHaveBeenCalled();
      mount('/?category=Development');
      act(() => vi.advanceTimersByTime(100));
      expect(window.scrollTo).toHaveBeenCalledWith(expect.objectContaining({ behavior: 'auto' }));
    } finally {
      vi.useRealTimers();
    }
  });
});
