import { fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { NotFound } from './NotFound';
import { AdminNotice } from './AdminNotice';
import { ErrorBoundary, GENERIC_ERROR_TEXT, GlobalErrorScreen, RouterErrorScreen, errorText } from './ErrorScreens';
import { Footer } from '../layout/Footer';

const inRouter = (ui: React.ReactNode) =>
  render(<RouterProvider router={createMemoryRouter([{ path: '*', element: ui }])} />);

describe('shell screens', () => {
  it('404: "Page Not Found", noindex, links to home, blog and submit', () => {
    inRouter(<NotFound />);
    expect(screen.getByRole('heading', { name: 'Page Not Found' })).toBeTruthy();
    const hrefs = screen.getAllByRole('link').map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(expect.arrayContaining(['/', '/blog', '/submit']));
    expect(document.head.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
  });

  it('/admin: only the notice and a way home', () => {
    inRouter(<AdminNotice />);
    // The notice is the page's one heading (a page without one leaves a screen reader nothing to jump to).
    expect(
      screen.getByRole('heading', { level: 1, name: 'Admin panel is only available in development environment' }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Homepage' }).getAttribute('href')).toBe('/');
  });

  it('global fallback and router fallback', () => {
    render(<GlobalErrorScreen />);
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Homepage' })).toBeTruthy();
    render(<RouterErrorScreen error={new Error('Failed to parse body as FormData.')} />);
    expect(screen.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeTruthy();
    expect(screen.getByText(GENERIC_ERROR_TEXT)).toBeTruthy();
    expect(screen.queryByText(/FormData/)).toBeNull();
  });

  it("router fallback shows an error answer's status and text, never an error's own message", () => {
    expect(errorText(new Error('ENOENT: /srv/app/secret.json'))).toBe(GENERIC_ERROR_TEXT);
    expect(errorText({ status: 405, statusText: 'Method Not Allowed', internal: true, data: null })).toBe(
      '405 Method Not Allowed',
    );
    expect(errorText('plain')).toBe(GENERIC_ERROR_TEXT);
  });

  it('an error boundary catches a crash and clears when its reset key changes', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const Crash = ({ crash }: { crash: boolean }) => {
      if (crash) throw new Error('route crashed');
      return <p>fine</p>;
    };
    const { rerender } = render(
      <ErrorBoundary resetKey="/a" fallback={(e) => <RouterErrorScreen error={e} />}>
        <Crash crash />
      </ErrorBoundary>,
    );
    expect(screen.getByText(GENERIC_ERROR_TEXT)).toBeTruthy();
    rerender(
      <ErrorBoundary resetKey="/b" fallback={(e) => <RouterErrorScreen error={e} />}>
        <Crash crash={false} />
      </ErrorBoundary>,
    );
    expect(screen.getByText('fine')).toBeTruthy();
  });

  it('footer: every footer link, social links in a new tab, 2025 copyright', () => {
    inRouter(<Footer />);
    for (const [name, href] of [
      ['Home', '/'],
      ['Blog', '/blog'],
      ['Advertise Your Tool', '/advertise'],
      ['Submit Tool', '/submit'],
      ['Privacy Policy', '/privacy'],
      ['Terms of Service', '/terms'],
      ['Cookie Policy', '/cookies'],
      ['Contact Us', '/contact'],
    ]) {
      expect(screen.getByRole('link', { name }).getAttribute('href')).toBe(href);
    }
    for (const name of ['LinkedIn', 'Pinterest', 'Medium']) {
      const a = screen.getByRole('link', { name });
      expect(a.getAttribute('target')).toBe('_blank');
      expect(a.getAttribute('rel')).toContain('noopener');
    }
    expect(screen.getByText(/© 2025/)).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Blog' }));
  });
});
