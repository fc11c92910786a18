import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { person, renderConsole, type Call } from '../testing';
import type { Upstream } from '@aitools/contracts/upstreams';

const admin = person([{ role: 'admin' }]);
const posts = (calls: Call[]) => calls.filter((c) => c.method === 'POST');
const counts = { pages: 2, records: 150, added: 3, listed: 0, updated: 5, unchanged: 142, deleted: 0, skipped: 0 };
const official: Upstream = {
  id: 1,
  url: 'https://registry.modelcontextprotocol.io',
  policy: 'submissions',
  pagesPerRun: 20,
  since: '2026-11-30T10:00:00.000Z',
  resumeCursor: null,
  resumeMark: null,
  lastSync: {
    startedAt: '2026-12-01T09:59:00.000Z',
    finishedAt: '2026-12-01T10:00:00.000Z',
    outcome: 'ok',
    reason: null,
    counts,
  },
};
const broken: Upstream = {
  ...official,
  id: 2,
  url: 'https://broken.example',
  policy: 'list',
  lastSync: {
    ...official.lastSync!,
    outcome: 'refused',
    reason: 'page 2 gave a cursor already followed: the cursors loop',
  },
};

describe('upstreams', () => {
  it('lists each upstream with its last sync: when, what it changed, or why it was refused', async () => {
    renderConsole('/upstreams', admin, { 'GET /api/upstreams': { upstreams: [official, broken] } });
    const table = await screen.findByRole('table', { name: 'Followed upstreams' });
    const [, first, second] = within(table).getAllByRole('row');
    expect(first!.textContent).toContain('2026-12-01 10:00 UTC');
    expect(first!.textContent).toContain('150 records in 2 pages: 3 added as submissions, 5 updated');
    expect(within(first!).getByText('Pending submissions for the moderators')).toBeTruthy();
    expect(second!.textContent).toContain(
      'Refused, nothing changed: page 2 gave a cursor already followed: the cursors loop',
    );
    expect(within(second!).getByText('Listed at once')).toBeTruthy();
  });

  it('follows a new upstream with its policy and pages per run', async () => {
    const user = userEvent.setup();
    let list: Upstream[] = [];
    const { calls } = renderConsole('/upstreams', admin, {
      'GET /api/upstreams': () => ({ upstreams: list }),
      'POST /api/upstreams': (call: Call) => {
        list = [{ ...official, ...(call.body as object), id: 3, lastSync: null }];
        return { status: 201, body: { upstream: list[0] } };
      },
    });
    await user.type(await screen.findByLabelText('Address'), 'https://mirror.example');
    await user.selectOptions(screen.getByLabelText('New servers'), 'Listed at once');
    const pages = screen.getByLabelText('Pages per run');
    await user.clear(pages);
    await user.type(pages, '50');
    await user.click(screen.getByRole('button', { name: 'Follow' }));
    expect(await screen.findByText('Upstream https://mirror.example followed.')).toBeTruthy();
    expect(posts(calls)).toEqual([
      {
        method: 'POST',
        path: '/api/upstreams',
        body: { url: 'https://mirror.example', policy: 'list', pagesPerRun: 50 },
      },
    ]);
    expect(await screen.findByText('Never')).toBeTruthy();
  });

  it('marks a refused field beside it and focuses it', async () => {
    const user = userEvent.setup();
    const reason = 'Pages per run must be a whole number from 1 to 1000';
    renderConsole('/upstreams', admin, {
      'GET /api/upstreams': { upstreams: [] },
      'POST /api/upstreams': {
        status: 400,
        body: { success: false, error: `Not accepted: Pages per run: ${reason}`, fieldErrors: { pagesPerRun: reason } },
      },
    });
    await user.type(await screen.findByLabelText('Address'), 'https://mirror.example');
    const pages = screen.getByLabelText('Pages per run');
    await user.clear(pages);
    await user.type(pages, '0');
    await user.click(screen.getByRole('button', { name: 'Follow' }));
    await waitFor(() => expect(document.activeElement).toBe(pages));
    expect(pages.getAttribute('aria-invalid')).toBe('true');
    expect(pages.getAttribute('aria-describedby')).toBe('upstream-pagesPerRun-error upstream-pagesPerRun-hint');
    expect(screen.getAllByText(reason)).toHaveLength(1);
  });

  it('edits an upstream, syncs it now and shows the result, and removes it after asking', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole('/upstreams', admin, {
      'GET /api/upstreams': { upstreams: [official] },
      'POST /api/upstreams/1': { upstream: official },
      'POST /api/upstreams/1/sync': { result: { ...official.lastSync, counts: { ...counts, added: 0, updated: 1 } } },
      'POST /api/upstreams/1/remove': { removed: official.url },
    });
    await user.click(await screen.findByRole('button', { name: `Edit ${official.url}` }));
    expect((screen.getByLabelText('Address') as HTMLInputElement).value).toBe(official.url);
    const pages = screen.getByLabelText('Pages per run');
    await user.clear(pages);
    await user.type(pages, '5');
    await user.click(screen.getByRole('button', { name: 'Save upstream' }));
    expect(await screen.findByText(`Upstream ${official.url} saved.`)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: `Sync now ${official.url}` }));
    expect(await screen.findByText(`${official.url}: 150 records in 2 pages: 1 updated`)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: `Remove ${official.url}` }));
    // Nothing is removed before the question is answered.
    expect(posts(calls).map((c) => c.path)).toEqual(['/api/upstreams/1', '/api/upstreams/1/sync']);
    const question = screen.getByRole('group', { name: /Stop following/ });
    await user.click(within(question).getByRole('button', { name: `Remove ${official.url}` }));
    expect(await screen.findByText(`${official.url} is no longer followed.`)).toBeTruthy();
    expect(posts(calls)[0]!.body).toEqual({ url: official.url, policy: 'submissions', pagesPerRun: 5 });
    expect(posts(calls)[2]!.path).toBe('/api/upstreams/1/remove');
  });

  it('is not shown to a role that is not admin', async () => {
    renderConsole('/upstreams', person([{ role: 'editor' }]));
    expect(await screen.findByText('Your roles do not include this section.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Upstreams' })).toBeNull();
  });
});
