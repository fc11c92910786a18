import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { importExposed } from './federation';
import { remoteRoute } from './RemoteRoute';
import { browserModuleSource, SourceContext } from './moduleSource';
import type { RemoteManifest } from './manifest';

vi.mock('./federation', () => ({ importExposed: vi.fn() }));
const mockedImport = vi.mocked(importExposed);

const releases: RemoteManifest = { legal: { id: 'r1', entry: '/remotes/legal/r1/remoteEntry.js', css: [] } };

function renderRoute(module: string, remote: 'legal' | 'blog' = 'legal') {
  const source = browserModuleSource(releases, (r, m, opts) =>
    import('./loadRemote').then((l) =>
      l.loadRemoteModule(r, m, { ...opts, linkCss: async () => {}, probe: async () => null }),
    ),
  );
  const router = createMemoryRouter([remoteRoute({ path: '/page', remote, module, query: [] }, source)], {
    initialEntries: ['/page'],
  });
  return render(
    <SourceContext.Provider value={source}>
      <RouterProvider router={router} />
    </SourceContext.Provider>,
  );
}

describe('a remote route', () => {
  it("runs the module's loader and renders its component with the data, and its head", async () => {
    mockedImport.mockResolvedValueOnce({
      loader: async () => ({ text: 'from the loader' }),
      head: ({ data }: { data: { text: string } }) => ({ title: `Head: ${data.text}` }),
      Component: ({ data }: { data: { text: string } }) => <p>{data.text}</p>,
    });
    renderRoute('./Privacy');
    expect(await screen.findByText('from the loader')).toBeTruthy();
    // The head is applied in an effect, after the text is on screen.
    await waitFor(() => expect(document.title).toBe('Head: from the loader'));
  });

  it('shows the boundary when the remote fails, and "Try again" loads it in place', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockedImport.mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'));
    renderRoute('./Terms');
    expect(await screen.findByText(/Loading chunk legal\/Terms failed\./)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reload page' })).toBeNull();
    mockedImport.mockResolvedValueOnce({ Component: () => <p>back again</p> });
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('back again')).toBeTruthy();
    // The retry asked for the release under a fresh address.
    expect(mockedImport.mock.calls.at(-1)?.[1]).toMatch(/^\/remotes\/legal\/r1\/retry\/1-\w+\/remoteEntry\.js$/);
  });

  it('says so when a retry fails too, and offers a full reload', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockedImport.mockRejectedValue(new TypeError('Failed to fetch dynamically imported module'));
    renderRoute('./Cookies');
    await screen.findByText(/Loading chunk legal\/Cookies failed\./);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(/Trying again did not help/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload page' })).toBeTruthy();
    mockedImport.mockReset();
  });

  it('a remote missing from the manifest shows the boundary too', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderRoute('./BlogList', 'blog');
    expect(await screen.findByText(/\(missing\)/)).toBeTruthy();
  });

  it('treats an exposed module without a component as missing', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockedImport.mockResolvedValueOnce({ nothing: true });
    renderRoute('./Other');
    expect(await screen.findByText(/\(missing\)/)).toBeTruthy();
  });
});
