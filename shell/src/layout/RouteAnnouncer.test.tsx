import { act, render, screen, waitFor } from '@testing-library/react';
import { useEffect } from 'react';
import { createMemoryRouter, Link, RouterProvider, useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { RouteAnnouncer } from './RouteAnnouncer';

/** A page that sets its title as the site's head does (in an effect), inside the frame's #main-content. */
function Page() {
  const { pathname, search } = useLocation();
  useEffect(() => {
    document.title = `Page ${pathname}`;
  }, [pathname]);
  return (
    <>
      <nav>
        <Link to="/blog">Blog</Link> <Link to="/?search=notion">Search</Link>
      </nav>
      <RouteAnnouncer />
      <div id="main-content" tabIndex={-1}>
        <h1>
          {pathname}
          {search}
        </h1>
      </div>
    </>
  );
}

describe('RouteAnnouncer', () => {
  it('announces the new page and moves focus to its content, not on the first load nor on a new query', async () => {
    const router = createMemoryRouter([{ path: '*', element: <Page /> }], { initialEntries: ['/'] });
    render(<RouterProvider router={router} />);
    const status = screen.getByRole('status');
    const search = screen.getByRole('link', { name: 'Search' });
    search.focus();
    await act(async () => search.click());
    expect(screen.getByRole('heading').textContent).toBe('/?search=notion');
    // A new query on the same page: focus stays, nothing is said.
    expect(document.activeElement).toBe(search);
    expect(status.textContent).toBe('');

    const blog = screen.getByRole('link', { name: 'Blog' });
    blog.focus();
    await act(async () => blog.click());
    expect(document.activeElement).toBe(document.getElementById('main-content'));
    await waitFor(() => expect(status.textContent).toBe('Page /blog'));
  });
});
