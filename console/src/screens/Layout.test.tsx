import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { person, renderConsole } from '../testing';
import { flattenFacts } from './Dashboard';

const dashboard = {
  pendingSubmissions: 2,
  messagesThisWeek: 5,
  viewsPerRemotePerDay: [
    { day: '2026-11-25', remote: 'blog', views: 40 },
    { day: '2026-11-26', remote: 'blog', views: 12 },
    { day: '2026-11-26', remote: 'directory', views: 30 },
  ],
  remotes: [
    { name: 'blog', active: 'b1', errorRates: { watching: null, stable: { release: 'b1', views: 200, errors: 2 } } },
  ],
};
const api = { 'GET /api/dashboard': dashboard, 'GET /api/health': { instance: { status: 'ok' } } };
const sections = async () =>
  within(await screen.findByRole('navigation', { name: 'Sections' }))
    .getAllByRole('link')
    .map((l) => l.textContent);

describe('the frame and the roles', () => {
  it('signed out, any address shows the sign-in', async () => {
    renderConsole('/releases', null);
    expect(await screen.findByRole('heading', { name: 'Sign in to the console' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in with a passkey' })).toBeTruthy();
  });

  it('a moderator is not offered the admin sections', async () => {
    renderConsole('/', person([{ role: 'moderator' }]), api);
    expect(await sections()).toEqual(['Dashboard', 'Submissions', 'Inbox', 'Checks', 'Releases', 'My passkeys']);
  });

  it('an editor is offered the content area; a moderator and an admin are not', async () => {
    const content = () => screen.queryByRole('navigation', { name: 'Content' });
    renderConsole('/', person([{ role: 'editor' }]), api);
    await sections();
    expect(
      within(content()!)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Posts', 'Tools', 'Categories and tags']);
    cleanup();
    for (const role of ['moderator', 'admin'] as const) {
      renderConsole('/', person([{ role }]), api);
      await sections();
      expect(content(), role).toBeNull();
      cleanup();
    }
  });

  it('an admin is offered people, tokens and the audit log', async () => {
    renderConsole('/', person([{ role: 'admin' }]), api);
    expect(await sections()).toEqual(expect.arrayContaining(['Tokens', 'Upstreams', 'People', 'Audit log']));
  });

  it("the registry's jobs are offered to editors and admins, not to a moderator", async () => {
    for (const [role, offered] of [
      ['editor', true],
      ['admin', true],
      ['moderator', false],
    ] as const) {
      renderConsole('/', person([{ role }]), api);
      expect((await sections()).includes('Registry'), role).toBe(offered);
      cleanup();
    }
  });

  it('an admin-only address opened by a moderator says so and calls nothing', async () => {
    const { calls } = renderConsole('/people', person([{ role: 'moderator' }]));
    expect(await screen.findByRole('heading', { name: 'Not available' })).toBeTruthy();
    expect(calls.map((c) => c.path)).toEqual(['/api/auth/me']);
  });

  it('the dashboard shows the counts, the remotes and the views per remote per day', async () => {
    renderConsole('/', person([{ role: 'viewer' }]), api);
    expect(await screen.findByText('pending submissions')).toBeTruthy();
    const remotes = screen.getByRole('table', { name: /Remotes/ });
    expect(within(remotes).getByRole('row', { name: /blog b1 none 1\.0% \(2 errors in 200 views\)/ })).toBeTruthy();
    const views = screen.getByRole('row', { name: '2026-11-26 12 30' });
    expect(views).toBeTruthy();
  });

  it('a 401 from any call (a session ended elsewhere) brings back the sign-in', async () => {
    renderConsole('/', person([{ role: 'viewer' }]), {
      'GET /api/dashboard': { status: 401, body: { error: 'Not signed in.' } },
      'GET /api/health': { instance: {} },
    });
    expect(await screen.findByRole('heading', { name: 'Sign in to the console' })).toBeTruthy();
  });

  it('sign out everywhere calls its endpoint and shows the sign-in', async () => {
    const { calls } = renderConsole('/', person([{ role: 'viewer' }]), {
      ...api,
      'POST /api/auth/logout-everywhere': { status: 204 },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to the console' })).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/auth/logout-everywhere')).toBe(true);
  });
});

describe('moving between sections', () => {
  it('puts the focus on the new section’s content', async () => {
    const user = userEvent.setup();
    renderConsole('/', person([{ role: 'viewer' }]), {
      ...api,
      'GET /api/releases': { remotes: [] },
    });
    await user.click(await screen.findByRole('link', { name: 'Releases' }));
    expect(await screen.findByRole('heading', { name: 'Releases' })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('main'));
  });
});

describe('health facts', () => {
  it('lists nested facts on one level', () => {
    expect(flattenFacts({ pid: 7, database: { dialect: 'sqlite', ok: true }, releases: { remotes: {} } })).toEqual([
      ['pid', '7'],
      ['database dialect', 'sqlite'],
      ['database ok', 'yes'],
      ['releases remotes', 'none'],
    ]);
  });
});
