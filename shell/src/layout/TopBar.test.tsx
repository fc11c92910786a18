import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ThemeProvider } from '../theme/ThemeProvider';
import { TopBar } from './TopBar';

function show(url: string) {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <ThemeProvider>
        <TopBar />
      </ThemeProvider>
    </MemoryRouter>,
  );
}

beforeEach(() => {
  window.matchMedia = vi.fn().mockReturnValue({ matches: false }) as unknown as typeof window.matchMedia;
});

describe('TopBar', () => {
  it('links to each main section and marks the current one', () => {
    const { container } = show('/blog/a-post');
    const inline = container.querySelector('.top-nav--inline') as HTMLElement;
    const links = within(inline).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('aria-current')])).toEqual([
      ['Directory', '/', null],
      ['MCP Servers', '/?type=mcp-servers', null],
      ['Blog', '/blog', 'true'],
      ['Submit a tool', '/submit', null],
    ]);
  });

  it('puts the same links in a <details> menu that a followed link closes', () => {
    const { container } = show('/?type=mcp-servers');
    const menu = container.querySelector('details.top-menu') as HTMLDetailsElement;
    expect(within(menu).getByRole('link', { name: 'MCP Servers' }).getAttribute('aria-current')).toBe('page');
    menu.open = true;
    fireEvent.click(within(menu).getByRole('link', { name: 'Blog' }));
    expect(menu.open).toBe(false);
    expect(screen.getAllByRole('link', { name: 'Blog' })[0].getAttribute('aria-current')).toBe('page');
  });

  it('Escape closes the open menu and returns focus to its button', () => {
    const { container } = show('/');
    const menu = container.querySelector('details.top-menu') as HTMLDetailsElement;
    menu.open = true;
    fireEvent.keyDown(within(menu).getByRole('link', { name: 'Blog' }), { key: 'Escape' });
    expect(menu.open).toBe(false);
    expect(document.activeElement).toBe(menu.querySelector('summary'));
  });
});
