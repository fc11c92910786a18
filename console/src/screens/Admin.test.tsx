import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { person, renderConsole, type Call } from '../testing';

const admin = person([{ role: 'admin' }]);
const posts = (calls: Call[]) => calls.filter((c) => c.method === 'POST');

describe('tokens', () => {
  it('a new token is shown once, and the list never holds a value', async () => {
    const user = userEvent.setup();
    let tokens = [{ label: 'ci', remotes: ['blog'], createdAt: '2026-11-20T00:00:00Z' }];
    const { calls } = renderConsole('/tokens', admin, {
      'GET /api/tokens': () => ({ tokens }),
      'POST /api/tokens': () => {
        tokens = [...tokens, { label: 'deploy', remotes: ['blog', 'forms'], createdAt: '2026-11-26T00:00:00Z' }];
        return { token: 'rt_secret_value' };
      },
      'POST /api/tokens/ci/revoke': { status: 204 },
    });
    await user.type(await screen.findByLabelText('Label'), 'deploy');
    await user.type(screen.getByLabelText('Remotes (comma-separated)'), 'blog, forms');
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    expect(((await screen.findByLabelText('Token')) as HTMLInputElement).value).toBe('rt_secret_value');
    expect(posts(calls)[0]).toMatchObject({
      path: '/api/tokens',
      body: { label: 'deploy', remotes: ['blog', 'forms'] },
    });
    await user.click(screen.getByRole('button', { name: 'Revoke ci' }));
    expect(await screen.findByText('Token ci revoked.')).toBeTruthy();
    expect(screen.queryByLabelText('Token')).toBeNull();
  });
});

describe('a refused token', () => {
  it('marks the Remotes field with its reason, focuses it, and clears it when it is changed', async () => {
    const user = userEvent.setup();
    const reason = 'Unknown remote "nope": directory, blog, forms, legal, or "*".';
    renderConsole('/tokens', admin, {
      'GET /api/tokens': { tokens: [] },
      'POST /api/tokens': { status: 400, body: { success: false, error: reason, fieldErrors: { remotes: reason } } },
    });
    await user.type(await screen.findByLabelText('Label'), 'ci');
    const remotes = screen.getByLabelText('Remotes (comma-separated)');
    await user.type(remotes, 'nope');
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    await waitFor(() => expect(document.activeElement).toBe(remotes));
    expect(remotes.getAttribute('aria-invalid')).toBe('true');
    expect(remotes.getAttribute('aria-describedby')).toBe('token-remotes-error token-remotes-hint');
    expect(screen.getAllByText(reason)).toHaveLength(1);
    expect(screen.getByRole('alert').textContent).toBe('No token created: check Remotes (comma-separated).');
    await user.type(remotes, 'x');
    expect(remotes.getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('people', () => {
  it('invites a blog release manager and shows the one-time link', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole('/people', admin, {
      'GET /api/people': { people: [{ ...admin }] },
      'POST /api/invitations': { link: 'http://localhost:8081/invite/abc', expiresAt: '2026-11-27T10:00:00Z' },
    });
    const form = (await screen.findByRole('heading', { name: 'Invite someone' })).closest('form')!;
    await user.type(within(form).getByLabelText('Name'), 'Rel');
    await user.click(within(form).getByLabelText('viewer'));
    await user.click(within(form).getByLabelText('release manager'));
    await user.type(within(form).getByLabelText(/Remotes they release/), 'blog');
    await user.click(within(form).getByRole('button', { name: 'Create the invitation' }));
    expect(((await screen.findByLabelText('Invitation link')) as HTMLInputElement).value).toBe(
      'http://localhost:8081/invite/abc',
    );
    expect(posts(calls)[0].body).toEqual({ name: 'Rel', roles: [{ role: 'release-manager', remotes: ['blog'] }] });
  });

  it("a refused invitation marks the remote and the email in the form's words, focuses the first, and clears each when fixed", async () => {
    const user = userEvent.setup();
    let n = 0;
    renderConsole('/people', admin, {
      'GET /api/people': { people: [{ ...admin }] },
      'POST /api/invitations': () =>
        ++n === 1
          ? {
              status: 400,
              body: {
                success: false,
                error: 'Not accepted: Email must be an address like name@example.com; "nope" is not a remote',
                fieldErrors: {
                  email: 'Email must be an address like name@example.com',
                  'roles.0.remotes.0': '"nope" is not a remote: they are directory, blog, forms, legal',
                },
              },
            }
          : { link: 'http://localhost:8081/invite/abc', expiresAt: '2026-11-27T10:00:00Z' },
    });
    const form = (await screen.findByRole('heading', { name: 'Invite someone' })).closest('form')!;
    await user.type(within(form).getByLabelText('Name'), 'Rel');
    await user.type(within(form).getByLabelText('Email (optional)'), 'rel');
    await user.click(within(form).getByLabelText('release manager'));
    const remotes = within(form).getByLabelText(/Remotes they release/);
    await user.type(remotes, 'nope');
    await user.click(within(form).getByRole('button', { name: 'Create the invitation' }));
    const email = within(form).getByLabelText('Email (optional)');
    await waitFor(() => expect(document.activeElement).toBe(email));
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(remotes.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById('invite-remotes-error')?.textContent).toBe(
      '"nope" is not a remote: they are directory, blog, forms, legal',
    );
    // Beside the button: the fields by their labels; no path such as roles.0.remotes.0 anywhere.
    expect(within(form).getByRole('alert').textContent).toBe(
      'Not invited: check Email (optional) and Remotes they release.',
    );
    expect(document.body.textContent).not.toMatch(/roles\.0|Invalid option/);
    await user.clear(remotes);
    await user.type(remotes, 'blog');
    expect(remotes.getAttribute('aria-invalid')).toBeNull();
    expect(document.getElementById('invite-remotes-error')).toBeNull();
    await user.clear(email);
    expect(within(form).queryByRole('alert')).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Create the invitation' }));
    expect(await screen.findByLabelText('Invitation link')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('changes roles, disables, and issues a recovery invitation; nobody disables themself', async () => {
    const user = userEvent.setup();
    const mod = { id: 2, name: 'Mo', roles: [{ role: 'moderator' as const }], disabled: false };
    const { calls } = renderConsole('/people', admin, {
      'GET /api/people': { people: [admin, mod] },
      'POST /api/people/2/roles': { success: true },
      'POST /api/people/2/disable': { success: true },
      'POST /api/people/2/invitation': { link: 'http://localhost:8081/invite/rec', expiresAt: '2026-11-27T10:00:00Z' },
    });
    expect(await screen.findByRole('button', { name: 'Disable Mo' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Disable Ada' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Change roles of Mo' }));
    const edit = screen.getByRole('button', { name: 'Save roles' }).closest('form')!;
    await user.click(within(edit).getByLabelText('viewer'));
    await user.click(within(edit).getByRole('button', { name: 'Save roles' }));
    expect(await screen.findByText('Roles of Mo changed.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Disable Mo' }));
    await user.click(screen.getByRole('button', { name: 'Recovery invitation for Mo' }));
    expect(((await screen.findByLabelText('Invitation link')) as HTMLInputElement).value).toContain('/invite/rec');
    expect(posts(calls).map((c) => [c.path, c.body])).toEqual([
      ['/api/people/2/roles', { roles: [{ role: 'viewer' }, { role: 'moderator' }] }],
      ['/api/people/2/disable', {}],
      ['/api/people/2/invitation', {}],
    ]);
  });
});

describe('own roles', () => {
  it('an admin who gives up their own admin role is no longer offered its sections', async () => {
    const user = userEvent.setup();
    let me = admin;
    renderConsole('/people', admin, {
      'GET /api/auth/me': () => ({ person: me }),
      'GET /api/people': () => ({ people: [me] }),
      'POST /api/people/1/roles': () => {
        me = { ...admin, roles: [{ role: 'viewer' }] };
        return { person: me };
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Change roles of Ada' }));
    const edit = screen.getByRole('button', { name: 'Save roles' }).closest('form')!;
    await user.click(within(edit).getByLabelText('viewer'));
    await user.click(within(edit).getByLabelText('admin'));
    await user.click(within(edit).getByRole('button', { name: 'Save roles' }));
    expect(await screen.findByRole('heading', { name: 'Not available' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Sections' });
    expect(within(nav).queryByRole('link', { name: 'People' })).toBeNull();
  });
});

describe('the audit log', () => {
  it('filters by actor and action, and pages back', async () => {
    const user = userEvent.setup();
    const entry = (id: number, actor: string, action: string) => ({
      id,
      at: '2026-11-26T10:00:00Z',
      actor,
      action,
      target: 'blog',
      summary: 'b2 -> b1',
      address: '127.0.0.1',
      outcome: id === 3 ? 'refused' : 'ok',
    });
    const { calls } = renderConsole('/audit', admin, {
      'GET /api/audit': { entries: [entry(5, 'Ada', 'invite')] },
      'GET /api/audit?actor=Mo&action=release.rollback': { entries: [entry(3, 'Mo', 'release.rollback')], next: 3 },
      'GET /api/audit?actor=Mo&action=release.rollback&before=3': { entries: [entry(1, 'Mo', 'release.rollback')] },
    });
    expect(await screen.findByRole('cell', { name: 'invite' })).toBeTruthy();
    await user.type(screen.getByLabelText('Actor'), 'Mo');
    await user.type(screen.getByLabelText('Action'), 'release.rollback');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    expect(await screen.findByRole('cell', { name: 'refused' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Older entries' }));
    expect(await screen.findAllByRole('cell', { name: 'release.rollback' })).toHaveLength(2);
    expect(calls.at(-1)!.path).toBe('/api/audit?actor=Mo&action=release.rollback&before=3');
  });
});

describe('invitations and passkeys', () => {
  it('an invitation page names the person and their roles', async () => {
    renderConsole('/invite/tok123', null, {
      'POST /api/auth/invitation': { name: 'Rel', roles: [{ role: 'release-manager', remotes: ['blog'] }] },
    });
    expect(await screen.findByText(/release manager \(blog\)/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Register a passkey' })).toBeTruthy();
  });

  it('a used or expired invitation says so', async () => {
    renderConsole('/invite/used', null, {
      'POST /api/auth/invitation': { status: 410, body: { error: 'This invitation was already used.' } },
    });
    expect((await screen.findByRole('alert')).textContent).toContain('This invitation was already used.');
    expect(screen.queryByRole('button', { name: 'Register a passkey' })).toBeNull();
  });

  it('the only passkey cannot be removed from the page; another can', async () => {
    const user = userEvent.setup();
    const key = (id: string, label: string) => ({ id, label, createdAt: '2026-11-26T00:00:00Z', lastUsedAt: null });
    let keys = [key('k1', 'laptop'), key('k2', 'phone')];
    renderConsole('/passkeys', admin, {
      'GET /api/auth/passkeys': () => ({ passkeys: keys }),
      'POST /api/auth/passkeys/k2/delete': () => {
        keys = [keys[0]];
        return { status: 204 };
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Remove phone' }));
    expect(await screen.findByText('Passkey phone removed.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Remove laptop' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('a refused passkey name', () => {
  it('is marked beside the field with focus on it, and cleared when the name changes', async () => {
    const user = userEvent.setup();
    const reason = 'Passkey name contains a text-direction control (U+202E)';
    renderConsole('/passkeys', admin, {
      'GET /api/auth/passkeys': {
        passkeys: [{ id: 'a', label: 'Laptop', createdAt: '2026-11-20T00:00:00Z', lastUsedAt: null }],
      },
      'POST /api/auth/passkeys/add/options': {
        status: 400,
        body: { success: false, error: `Not accepted: ${reason}`, fieldErrors: { label: reason } },
      },
    });
    const name = await screen.findByLabelText('Name (optional)');
    await user.type(name, 'Work');
    await user.click(screen.getByRole('button', { name: 'Add a passkey on this device' }));
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getAllByText(reason)).toHaveLength(1);
    expect(screen.getByRole('alert').textContent).toBe('No passkey added: check Name (optional).');
    await user.type(name, 'x');
    expect(name.getAttribute('aria-invalid')).toBeNull();
  });
});
