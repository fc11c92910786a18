import { fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { pageWindow } from './pagination';
import { Pagination, type PaginationProps } from './Pagination';

describe('pageWindow around the current page (the directory: current ± 2)', () => {
  const dir = (c: number, t: number) => pageWindow(c, t, { siblings: 2 });
  it('is empty at one page or fewer', () => {
    expect(dir(1, 1)).toEqual([]);
    expect(dir(1, 0)).toEqual([]);
  });
  it('lists every page when there are few', () => {
    expect(dir(1, 2)).toEqual([1, 2]);
    expect(dir(3, 5)).toEqual([1, 2, 3, 4, 5]);
  });
  it('shows 1, last and current ± 2 with ellipses', () => {
    expect(dir(1, 10)).toEqual([1, 2, 3, 'ellipsis-end', 10]);
    expect(dir(5, 10)).toEqual([1, 'ellipsis-start', 3, 4, 5, 6, 7, 'ellipsis-end', 10]);
    expect(dir(10, 10)).toEqual([1, 'ellipsis-start', 8, 9, 10]);
    expect(dir(4, 10)).toEqual([1, 2, 3, 4, 5, 6, 'ellipsis-end', 10]);
    expect(dir(7, 10)).toEqual([1, 'ellipsis-start', 5, 6, 7, 8, 9, 10]);
  });
});

describe('pageWindow with a fixed count (the blog: at most 5 page buttons)', () => {
  const blog = (c: number, t: number) => pageWindow(c, t, { siblings: 1, fixedCount: true });
  it('lists every page when there are 5 or fewer', () => {
    expect(blog(1, 1)).toEqual([]);
    expect(blog(2, 2)).toEqual([1, 2]);
    expect(blog(3, 5)).toEqual([1, 2, 3, 4, 5]);
  });
  it('shows 1-4, a gap and the last page while the current page is 3 or lower', () => {
    for (const c of [1, 2, 3]) expect(blog(c, 10)).toEqual([1, 2, 3, 4, 'ellipsis-end', 10]);
  });
  it('shows the first page, a gap and the last 4 within 2 of the end', () => {
    for (const c of [8, 9, 10]) expect(blog(c, 10)).toEqual([1, 'ellipsis-start', 7, 8, 9, 10]);
    expect(blog(4, 6)).toEqual([1, 'ellipsis-start', 3, 4, 5, 6]);
  });
  it('shows first, gap, current - 1..current + 1, gap, last in the middle', () => {
    expect(blog(4, 10)).toEqual([1, 'ellipsis-start', 3, 4, 5, 'ellipsis-end', 10]);
    expect(blog(7, 10)).toEqual([1, 'ellipsis-start', 6, 7, 8, 'ellipsis-end', 10]);
  });
});

const props: PaginationProps = {
  page: 1,
  total: 3,
  hrefFor: (p) => (p === 1 ? '/list' : `/list?page=${p}`),
  window: { siblings: 2 },
  label: 'Pagination',
  block: 'x-pagination',
  previous: { text: '‹', label: 'Previous page' },
  next: { text: '›', label: 'Next page' },
};

function show(extra: Partial<PaginationProps> = {}) {
  const router = createMemoryRouter([{ path: '*', element: <Pagination {...props} {...extra} /> }], {
    initialEntries: ['/list'],
  });
  render(<RouterProvider router={router} />);
  return within(screen.getByRole('navigation', { name: 'Pagination' }));
}

describe('Pagination', () => {
  it('renders real links, the current page marked, previous disabled at the start', () => {
    const nav = show();
    expect(nav.getByRole('link', { name: 'Page 1' }).getAttribute('aria-current')).toBe('page');
    expect(nav.getByRole('link', { name: 'Page 3' }).getAttribute('href')).toBe('/list?page=3');
    expect(nav.getByRole('link', { name: 'Next page' }).getAttribute('href')).toBe('/list?page=2');
    const prev = nav.getByRole('link', { name: 'Previous page' });
    expect(prev.getAttribute('aria-disabled')).toBe('true');
    expect(prev.hasAttribute('href')).toBe(false);
  });

  it('tells the caller which page a click asks for', () => {
    const onPage = vi.fn();
    const nav = show({ page: 2, onPage });
    fireEvent.click(nav.getByRole('link', { name: 'Page 3' }));
    fireEvent.click(nav.getByRole('link', { name: 'Previous page' }));
    expect(onPage.mock.calls.map(([p]) => p)).toEqual([3, 1]);
  });

  it('renders nothing at one page', () => {
    const router = createMemoryRouter([{ path: '*', element: <Pagination {...props} total={1} /> }]);
    const { container } = render(<RouterProvider router={router} />);
    expect(container.querySelector('nav')).toBeNull();
  });
});
