import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONSOLE_ORIGIN,
  ConsoleBrowser,
  signedInPerson,
  signIn,
  startConsoleTest,
  tokenOf,
  type ConsoleTest,
} from '../../test/consoleHarness';
import { SoftAuthenticator } from '../../test/softAuthenticator';
import { createInvitation } from './invitations';
import { createPerson } from './people';

let t: ConsoleTest;
beforeAll(async () => {
  t = await startConsoleTest();
});
afterAll(() => t.close());

describe('console sign-in', () => {
  it('registers from an invitation and signs in again with the passkey', async () => {
    const { browser, key } = await signedInPerson(t, 'Ada', [{ role: 'admin' }]);
    const me = await browser.get('/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.person).toMatchObject({ name: 'Ada', roles: [{ role: 'admin' }] });
    const fresh = new ConsoleBrowser(t);
    const r = await signIn(fresh, key);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await fresh.get('/api/auth/me')).status).toBe(200);
  });

  it('adds a second passkey with its label and removes one, never the last; an invitation registers one with its label, the options call taking the label too', async () => {
    const { browser } = await signedInPerson(t, 'Two keys', [{ role: 'viewer' }]);
    const second = new SoftAuthenticator(CONSOLE_ORIGIN);
    const options = await browser.post('/api/auth/passkeys/add/options', { label: 'Laptop' });
    expect(options.status).toBe(200);
    const added = await browser.post('/api/auth/passkeys/add/verify', {
      label: 'Laptop',
      response: second.register(options.body.options),
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const keys = (await browser.get('/api/auth/passkeys')).body.passkeys as { id: string; label: string }[];
    expect(keys.map((k) => k.label)).toContain('Laptop');
    expect((await browser.post(`/api/auth/passkeys/${keys[0]!.id}/delete`)).status).toBe(204);
    expect((await browser.post(`/api/auth/passkeys/${keys[1]!.id}/delete`)).status).toBe(409);
    // The invitation's options call takes the label too.
    const person = await createPerson(t.db, { name: 'Labelled', roles: [{ role: 'viewer' }] });
    const { link } = await createInvitation(t.db, { personId: person.id, origin: CONSOLE_ORIGIN, by: 'test' });
    const fresh = new ConsoleBrowser(t);
    const reg = await fresh.post('/api/auth/register/options', { token: tokenOf(link), label: 'Phone' });
    expect(reg.status).toBe(200);
    const phone = new SoftAuthenticator(CONSOLE_ORIGIN);
    const done = await fresh.post('/api/auth/register/verify', {
      token: tokenOf(link),
      label: 'Phone',
      response: phone.register(reg.body.options),
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const theirs = (await fresh.get('/api/auth/passkeys')).body.passkeys as { label: string }[];
    expect(theirs.map((k) => k.label)).toEqual(['Phone']);
  });
});
