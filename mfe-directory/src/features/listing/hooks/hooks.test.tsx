import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, waitFor } from '@testing-library/react';
import { defineRoute } from '@aitools/platform';
import { renderRoute } from '@aitools/platform/testing';
import { comboKey, rememberedPage, rememberPage } from '../pageMemory';
import { saveScrollPosition } from '../scrollMemory';
import { useAddressFollows, useListingQuery } from './useListingQuery';
import { useSearchBox } from './useSearchBox';
import { useListingControls } from './useListingControls';
import { useArrival } from './useArrival';

/** The hooks as Home uses them, on a page at `url`; `current` holds the latest render's values. */
function mount(
  url: string,
  {
    ready = true,
    shown = () => true,
    loader,
  }: { ready?: boolean; shown?: () => boolean; loader?: () => Promise<null> } = {},
) {
  const current = {} as {
    listing: ReturnType<typeof useListingQuery>;
    search: ReturnType<typeof useSearchBox>;
    controls: ReturnType<typeof useListingControls>;
  };
  function Probe() {
    const listing = useListingQuery();
    useAddressFollows(listing, shown());
    const search = useSearchBox(listing.query.search);
    const controls = useListingControls(listing.query, search, listing.writeQuery);
    const grid = useRef<HTMLDivElement>(null);
    useArrival({ ready, memoryKey: controls.key, params: listing.params, grid, writeQuery: listing.writeQuery });
    Object.assign(current, { listing, search, controls });
    return (
      <div ref={grid}>
        <input ref={search.input} defaultValue={listing.query.search} />
      </div>
    );
  }
  const { router } = renderRoute(defineRoute({ Component: Probe, loader }), { path: '/', url, data: null });
  const address = () => router.state.location.pathname + router.state.location.search;
  return { current, router, address };
}

beforeEach(() => {
  localStorage.clear();
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  vi.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => (cb(0), 0));
});
afterEach(() => vi.restoreAllMocks());

describe('useListingQuery: the query in the address', () => {
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
  it('moves the address only once the results show, and an older write arriving never undoes a newer one', async () => {
    let shown = true;
    let arrive = () => {};
    const loader = () => new Promise<null>((resolve) => (arrive = () => resolve(null)));
    const { current, address } = mount('/', { shown: () => shown, loader });
    act(() => current.listing.writeQuery({ search: 'git' }));
    // The next write's results are not there yet when the first address arrives.
    shown = false;
    act(() => current.listing.writeQuery({ search: 'github' }));
    expect(address()).toBe('/');
    await act(async () => arrive());
    await waitFor(() => expect(address()).toBe('/?search=git'));
    expect(current.listing.query.search).toBe('github');
    expect(current.listing.written?.search).toBe('github');
    shown = true;
    act(() => current.listing.writeQuery({}));
    await act(async () => arrive());
    await waitFor(() => expect(address()).toBe('/?search=github'));
    await waitFor(() => expect(current.listing.written).toBeNull());
  });
});

describe('useSearchBox: instant typing, the address follows', () => {
  it('keeps what was typed, and takes a search that comes from elsewhere into the box', async () => {
    const { current, router, address } = mount('/');
    act(() => current.controls.onSearch('cla'));
    await waitFor(() => expect(address()).toBe('/?search=cla'));
    expect(current.search.text).toBe('cla');
    // Back, or a link with another search: the box shows it.
    await act(() => router.navigate('/?search=cursor'));
    expect(current.search.text).toBe('cursor');
    expect(current.search.input.current!.value).toBe('cursor');
  });
});

describe('useListingControls: page memory per combination', () => {
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

  it('clears filters and the search box at once', async () => {
    const { current, address } = mount('/?category=Development&type=mcp&search=git');
    act(() => current.controls.clearFilters());
    await waitFor(() => expect(address()).toBe('/'));
    expect(current.search.text).toBe('');
    expect(current.search.input.current!.value).toBe('');
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
