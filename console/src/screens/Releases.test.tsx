import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { person, renderConsole } from '../testing';
import type { RemoteReleases } from '../types';

const remote = (name: string, extra: Partial<RemoteReleases> = {}): RemoteReleases => ({
  name,
  active: `${name}-2`,
  releases: [
    { id: `${name}-1`, uploadedBy: 'token ci', createdAt: '2026-11-24T09:00:00Z' },
    { id: `${name}-2`, uploadedBy: 'cli root', createdAt: '2026-11-25T09:00:00Z' },
  ],
  history: [{ action: 'release', id: `${name}-2`, from: `${name}-1`, at: '2026-11-25T09:00:00Z', by: 'cli root' }],
  thresholds: { minViews: 50, minErrors: 5, ratio: 2, minDiffPoints: 2 },
  errorRates: { stable: { views: 400, errors: 4 } },
  ...extra,
});
const api = {
  'GET /api/releases': { remotes: [remote('blog'), remote('directory')] },
  'GET /api/releases/blog/series?hours=6': {
    points: [
      { minute: '2026-11-26T09:00:00Z', release: 'blog-2', views: 100, errors: 1 },
      { minute: '2026-11-26T09:01:00Z', release: 'blog-1', views: 50, errors: 5 },
    ],
  },
  'GET /api/releases/directory/series?hours=6': { points: [] },
};
const section = async (name: string) => screen.findByRole('region', { name });

describe('the releases page', () => {
  it('shows the active release, the releases kept with their uploader, the history and the error rates', async () => {
    renderConsole('/releases', person([{ role: 'viewer' }]), api);
    const blog = await section('blog');
    expect(within(blog).getByRole('row', { name: /blog-1 token ci/ })).toBeTruthy();
    expect(within(blog).getByText('1.0% (4 errors in 400 views)')).toBeTruthy();
    expect(within(blog).getByText(/rolled back above 2× the stable rate/)).toBeTruthy();
    expect(within(blog).getByText(/release blog-2 \(from blog-1\) by cli root/)).toBeTruthy();
    expect(await within(blog).findByRole('img', { name: /blog: error rate per page view/ })).toBeTruthy();
  });

  it('a viewer is offered no release action', async () => {
    renderConsole('/releases', person([{ role: 'viewer' }]), api);
    await section('blog');
    expect(screen.queryByRole('button', { name: /canary|Roll back|Promote|Abort/ })).toBeNull();
  });

  it("a blog release manager is offered the blog's actions, not the directory's", async () => {
    renderConsole('/releases', person([{ role: 'release-manager', remotes: ['blog'] }]), api);
    const blog = await section('blog');
    expect(within(blog).getByRole('button', { name: 'Start a canary…' })).toBeTruthy();
    expect(within(blog).getByRole('button', { name: 'Roll back…' })).toBeTruthy();
    const directory = screen.getByRole('region', { name: 'directory' });
    expect(within(directory).queryAllByRole('button')).toHaveLength(0);
  });

  it("a canary starts only once the remote's name is typed exactly and a reason given", async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole('/releases', person([{ role: 'release-manager', remotes: ['blog'] }]), {
      ...api,
      'POST /api/releases/blog/canary': { success: true },
    });
    const blog = await section('blog');
    await user.click(within(blog).getByRole('button', { name: 'Start a canary…' }));
    const go = within(blog).getByRole('button', { name: 'Start the canary on blog' }) as HTMLButtonElement;
    const share = within(blog).getByLabelText('Share of visitors (%)');
    await user.clear(share);
    await user.type(share, '50');
    await user.type(within(blog).getByLabelText('Reason'), 'try the new layout');
    await user.type(within(blog).getByLabelText(/to confirm/), 'Blog');
    expect(go.disabled).toBe(true);
    await user.click(go);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    await user.clear(within(blog).getByLabelText(/to confirm/));
    await user.type(within(blog).getByLabelText(/to confirm/), 'blog');
    expect(go.disabled).toBe(false);
    await user.click(go);
    expect(await screen.findByText('blog: canary blog-1 started at 50%.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([
      {
        method: 'POST',
        path: '/api/releases/blog/canary',
        body: { release: 'blog-1', share: 50, confirm: 'blog', reason: 'try the new layout' },
      },
    ]);
  });

  it('with a canary running, promote and abort are offered; a refusal is shown', async () => {
    const user = userEvent.setup();
    const withCanary = remote('blog', {
      canary: { release: 'blog-1', share: 50, since: '2026-11-26T09:00:00Z' },
      errorRates: { stable: { views: 100, errors: 1 }, canary: { views: 50, errors: 5 } },
    });
    renderConsole('/releases', person([{ role: 'release-manager', remotes: ['blog'] }]), {
      ...api,
      'GET /api/releases': { remotes: [withCanary] },
      'POST /api/releases/blog/abort': { status: 409, body: { error: 'No canary is running on blog.' } },
    });
    const blog = await section('blog');
    expect(within(blog).getByText('blog-1, 50% of visitors since 2026-11-26 09:00 UTC')).toBeTruthy();
    expect(within(blog).getByText('10.0% (5 errors in 50 views)')).toBeTruthy();
    expect(within(blog).getByRole('button', { name: 'Promote…' })).toBeTruthy();
    await user.click(within(blog).getByRole('button', { name: 'Abort…' }));
    await user.type(within(blog).getByLabelText(/to confirm/), 'blog');
    await user.type(within(blog).getByLabelText('Reason'), 'errors');
    await user.click(within(blog).getByRole('button', { name: 'Abort the canary of blog' }));
    expect((await within(blog).findByRole('alert')).textContent).toBe('No canary is running on blog.');
  });

  it('without a canary, a rollback returns to the release the active one replaced by default', async () => {
    const user = userEvent.setup();
    const three = remote('blog', { releases: [{ id: 'blog-3' }, { id: 'blog-1' }, { id: 'blog-2' }] });
    const { calls } = renderConsole('/releases', person([{ role: 'release-manager', remotes: ['blog'] }]), {
      ...api,
      'GET /api/releases': { remotes: [three] },
      'POST /api/releases/blog/rollback': { success: true },
    });
    const blog = await section('blog');
    await user.click(within(blog).getByRole('button', { name: 'Roll back…' }));
    const to = within(blog).getByLabelText('Roll back to') as HTMLSelectElement;
    expect(to.value).toBe('blog-1');
    expect([...to.options].map((o) => o.value)).toEqual(['blog-3', 'blog-1']);
    await user.keyboard('blog');
    await user.type(within(blog).getByLabelText('Reason'), 'bad layout');
    await user.click(within(blog).getByRole('button', { name: 'Roll back blog' }));
    expect(await screen.findByText('blog: rolled back.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')[0].body).toEqual({
      confirm: 'blog',
      reason: 'bad layout',
      release: 'blog-1',
    });
  });

  it('with a canary running, a rollback ends the canary unless a release is chosen', async () => {
    const user = userEvent.setup();
    const withCanary = remote('blog', { canary: { release: 'blog-1', share: 50, since: '2026-11-26T09:00:00Z' } });
    const { calls } = renderConsole('/releases', person([{ role: 'release-manager', remotes: ['blog'] }]), {
      ...api,
      'GET /api/releases': { remotes: [withCanary] },
      'POST /api/releases/blog/rollback': { success: true },
    });
    const blog = await section('blog');
    await user.click(within(blog).getByRole('button', { name: 'Roll back…' }));
    const to = within(blog).getByLabelText('Roll back to') as HTMLSelectElement;
    expect(to.value).toBe('');
    expect([...to.options].map((o) => o.text)).toEqual(['none: end the canary (blog-2 stays active)', 'blog-1']);
    await user.keyboard('blog');
    await user.type(within(blog).getByLabelText('Reason'), 'errors');
    await user.click(within(blog).getByRole('button', { name: 'Roll back blog' }));
    expect(await screen.findByText('blog: rolled back.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')[0].body).toEqual({ confirm: 'blog', reason: 'errors' });
  });

  it('a refused reason is marked beside its field, which takes focus, and editing it clears the mark', async () => {
    const user = userEvent.setup();
    renderConsole('/releases', person([{ role: 'release-manager', remotes: ['blog'] }]), {
      ...api,
      'POST /api/releases/blog/rollback': {
        status: 400,
        body: {
          success: false,
          error: 'Not accepted: Reason: contains a control character',
          fieldErrors: { reason: 'Contains a control character (U+001B), which is not allowed' },
        },
      },
    });
    const blog = await section('blog');
    await user.click(within(blog).getByRole('button', { name: 'Roll back…' }));
    await user.keyboard('blog');
    const reason = within(blog).getByLabelText('Reason');
    await user.type(reason, 'bad');
    await user.click(within(blog).getByRole('button', { name: 'Roll back blog' }));
    await vi.waitFor(() => expect(document.activeElement).toBe(reason));
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(reason.getAttribute('aria-describedby')!)?.textContent).toMatch(/control character/);
    expect(within(blog).queryByRole('alert')).toBeNull();
    await user.type(reason, ' layout');
    expect(reason.getAttribute('aria-invalid')).toBeNull();
  });
});
