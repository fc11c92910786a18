import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { importExposed } from './federation';
import { RemoteRoute } from './RemoteRoute';
import { browserPageContext, PageContext } from './pageState';

vi.mock('./federation', () => ({ importExposed: vi.fn() }));
const mockedImport = vi.mocked(importExposed);

// Loaded modules are cached per page, so each test asks for a different one.
function renderRoute(module: string, remote = 'legal', data?: unknown) {
  const page = browserPageContext({
    url: '/privacy',
    data,
    releases: { legal: { id: 'r1', entry: '/remotes/legal/r1/remoteEntry.js', css: [] } },
  });
  return render(
    <PageContext.Provider value={page}>
      <MemoryRouter initialEntries={['/privacy']}>
        <RemoteRoute remote={remote} module={module} />
      </MemoryRouter>
    </PageContext.Provider>,
  );
}

describe('RemoteRoute', () => {
  it('renders the federated module with the server data for its address', async () => {
    mockedImport.mockResolvedValueOnce(({ data }: { data?: { text: string } }) => <p>{data?.text}</p>);
    renderRoute('./Privacy', 'legal', { text: 'from the server' });
    expect(await screen.findByText('from the server')).toBeTruthy();
  });

  it('shows the boundary when the remote fails, and "Try again" loads it in place', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    globalThis.fetch = vi.fn().mockRejectedValue(new TypeError('down')) as typeof fetch;
    mockedImport.mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'));
    renderRoute('./Terms');
    expect(await screen.findByText(/Loading chunk legal\/Terms failed\./)).toBeTruthy();
    mockedImport.mockResolvedValueOnce(() => <p>back again</p>);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('back again')).toBeTruthy();
  });

  it('a remote missing from the manifest shows the boundary too', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderRoute('./BlogList', 'blog');
    expect(await screen.findByText(/\(missing\)/)).toBeTruthy();
  });
});
