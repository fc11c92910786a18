/**
 * More of the console's protections, each test failing when its protection is removed (docs/operations.md, The
 * console): a passkey removed only by its owner, a challenge bound to its purpose, person and invitation, a disabled
 * person's invitation and session refused, the sign-in limit on the invitation's calls, the audit rows of the
 * exports, reviews and admins' changes, the read check of every role, and sign-out everywhere needing a session.
 */
import request from 'supertest';
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
import { insertSubmission } from '../forms/repository';
import { listAudit, personActor } from '../content/audit';
import { createInvitation } from './invitations';
import { createPerson, setDisabled, type Person } from './people';
import { FLOW_COOKIE } from './passkeys';

let t: ConsoleTest;
let admin: Awaited<ReturnType<typeof signedInPerson>>;
let moderator: Awaited<ReturnType<typeof signedInPerson>>;
beforeAll(async () => {
  t = await startConsoleTest({ CONSOLE_SIGN_IN_LIMIT: '1000', CONSOLE_SIGN_IN_PERSON_LIMIT: '1000' });
  admin = await signedInPerson(t, 'Protections admin', [{ role: 'admin' }]);
  moderator = await signedInPerson(t, 'Protections moderator', [{ role: 'moderator' }]);
});
afterAll(() => t.close());

/** A person with an invitation link, not registered yet. */
async function invited(name: string) {
  const person = await createPerson(t.db, { name, roles: [{ role: 'viewer' }] });
  const inv = await createInvitation(t.db, { personId: person.id, origin: CONSOLE_ORIGIN, by: 'test' });
  return { person, token: tokenOf(inv.link) };
}

/** Adds a passkey for the person signed in in this browser. */
async function addPasskey(browser: ConsoleBrowser) {
  const key = new SoftAuthenticator(CONSOLE_ORIGIN);
  const options = await browser.post('/api/auth/passkeys/add/options');
  const res = await browser.post('/api/auth/passkeys/add/verify', { response: key.register(options.body.options) });
  if (res.status !== 200) throw new Error(`passkeys/add/verify: ${res.status} ${JSON.stringify(res.body)}`);
  return key;
}

const passkeysOf = async (browser: ConsoleBrowser) => (await browser.get('/api/auth/passkeys')).body.passkeys.length;
const meWithCookie = (session: string) =>
  request(t.app.console).get('/api/auth/me').set('Cookie', `__Host-console=${session}`);

describe('passkeys', () => {
  it("another person cannot remove someone's passkey: 404, and the owner still signs in with it", async () => {
    const owner = await signedInPerson(t, 'Key owner', [{ role: 'viewer' }]);
    const other = await signedInPerson(t, 'Key thief', [{ role: 'viewer' }]);
    await addPasskey(other.browser); // two keys, so "your only passkey" is not what stops the thief
    const id = owner.key.credentialId.toString('base64url');
    expect((await other.browser.post(`/api/auth/passkeys/${id}/delete`)).status).toBe(404);
    expect(await passkeysOf(other.browser)).toBe(2);
    expect((await signIn(new ConsoleBrowser(t), owner.key)).status).toBe(200);
  });
});

describe('a challenge is bound', () => {
  it('to its purpose: one for adding a passkey does not sign in, one for sign-in does not add a passkey', async () => {
    const { browser, key } = await signedInPerson(t, 'Purpose', [{ role: 'viewer' }]);
    const session = browser.session;
    const add = await browser.post('/api/auth/passkeys/add/options');
    expect(
      (await browser.post('/api/auth/login/verify', { response: key.authenticate(add.body.options) })).status,
    ).toBe(400);
    expect(browser.session).toBe(session);

    const login = await browser.post('/api/auth/login/options');
    const answer = new SoftAuthenticator(CONSOLE_ORIGIN).register(login.body.options);
    expect((await browser.post('/api/auth/passkeys/add/verify', { response: answer })).status).toBe(400);
    expect(await passkeysOf(browser)).toBe(1);
  });

  it('to its person: a challenge given to A, with its flow cookie, does not add a passkey for B', async () => {
    const a = await signedInPerson(t, 'Challenge A', [{ role: 'viewer' }]);
    const b = await signedInPerson(t, 'Challenge B', [{ role: 'viewer' }]);
    const options = await a.browser.post('/api/auth/passkeys/add/options');
    b.browser.cookies[FLOW_COOKIE] = a.browser.cookies[FLOW_COOKIE]!;
    const answer = new SoftAuthenticator(CONSOLE_ORIGIN).register(options.body.options);
    expect((await b.browser.post('/api/auth/passkeys/add/verify', { response: answer })).status).toBe(400);
    expect(await passkeysOf(b.browser)).toBe(1);
    expect(await passkeysOf(a.browser)).toBe(1);
  });

  it("to its invitation: one given for X's link does not register with Y's, and Y's stays usable", async () => {
    const x = await invited('Invitation X');
    const y = await invited('Invitation Y');
    const browser = new ConsoleBrowser(t);
    const options = await browser.post('/api/auth/register/options', { token: x.token });
    const answer = new SoftAuthenticator(CONSOLE_ORIGIN).register(options.body.options);
    expect((await browser.post('/api/auth/register/verify', { token: y.token, response: answer })).status).toBe(400);
    expect(browser.session).toBeUndefined();
    expect((await browser.post('/api/auth/invitation', { token: y.token })).status).toBe(200);
  });
});

describe('a disabled person', () => {
  it('cannot use their unused invitation link: 410, no session', async () => {
    const { person, token } = await invited('Disabled invitee');
    await setDisabled(t.db, person.id, true);
    const browser = new ConsoleBrowser(t);
    expect((await browser.post('/api/auth/invitation', { token })).status).toBe(410);
    expect((await browser.post('/api/auth/register/options', { token })).status).toBe(410);
    expect(browser.session).toBeUndefined();
  });

  it('is refused by the session check itself, even with their sessions left in the database', async () => {
    const { browser, person } = await signedInPerson(t, 'Disabled behind the back', [{ role: 'viewer' }]);
    expect((await meWithCookie(browser.session!)).status).toBe(200);
    await t.db.updateTable('console_people').set({ disabled: 1 }).where('id', '=', person.id).execute();
    expect((await meWithCookie(browser.session!)).status).toBe(401);
  });
});

describe('the sign-in limit', () => {
  let limited: ConsoleTest;
  beforeAll(async () => {
    limited = await startConsoleTest({
      CONSOLE_SIGN_IN_LIMIT: '2',
      CONSOLE_SIGN_IN_PERSON_LIMIT: '1000',
      TRUST_PROXY: 'loopback',
    });
  });
  afterAll(() => limited.close());

  // Each route from its own address (the trusted proxy says so), so each counts only its own calls.
  it.each([
    ['/api/auth/invitation', {}, '192.0.2.1'],
    ['/api/auth/register/options', {}, '192.0.2.2'],
    ['/api/auth/register/verify', { response: {} }, '192.0.2.3'],
  ])('holds on %s', async (path, body, address) => {
    const browser = new ConsoleBrowser(limited);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push(
        (await browser.post(path, { token: 'x'.repeat(43), ...body }, { 'X-Forwarded-For': address })).status,
      );
    expect(statuses).toEqual([404, 404, 429]);
  });
});

describe('the audit trail has a row', () => {
  const expectRow = async (action: string, actor: Person, target: string) => {
    const row = (await listAudit(t.db, { action })).entries[0];
    expect(row, action).toMatchObject({ actor: personActor(actor), action, target, outcome: 'ok' });
  };

  it.each([
    ['/api/contacts.csv', 'contacts.export', 'contacts'],
    ['/api/waitlist.csv', 'waitlist.export', 'waitlist'],
  ])('for each export: GET %s', async (path, action, target) => {
    expect((await moderator.browser.get(path)).status).toBe(200);
    await expectRow(action, moderator.person, target);
  });

  it.each([
    ['/api/contacts', 'contacts.read', 'contacts'],
    ['/api/waitlist', 'waitlist.read', 'waitlist'],
    ['/api/submissions?status=all', 'submissions.read', 'submissions'],
  ])("for each reading of visitors' email addresses, by any role: GET %s", async (path, action, target) => {
    const viewer = await signedInPerson(t, `Reader of ${target}`, [{ role: 'viewer' }]);
    expect((await viewer.browser.get(path)).status).toBe(200);
    await expectRow(action, viewer.person, target);
  });

  it('for each rejected submission', async () => {
    const id = await insertSubmission(t.db, {
      name: 'Rejected Tool',
      email: 'o@rejected.example',
      website_url: 'https://rejected.example',
      tool_type: 'ai-tool',
      description: 'A tool',
      message: null,
    });
    const res = await moderator.browser.post('/api/submissions/reject', { ids: [id], reason: 'Not a tool' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await expectRow('submission.reject', moderator.person, `submission ${id}`);
  });

  it('for a recovery link', async () => {
    const { person } = await invited('Recovered');
    expect((await admin.browser.post(`/api/people/${person.id}/invitation`)).status).toBe(200);
    await expectRow('person.recover', admin.person, `person ${person.id} Recovered`);
  });

  it('for a change of roles', async () => {
    const { person } = await invited('Promoted');
    const res = await admin.browser.post(`/api/people/${person.id}/roles`, { roles: [{ role: 'moderator' }] });
    expect(res.status).toBe(200);
    await expectRow('person.roles', admin.person, `person ${person.id} Promoted`);
  });

  it('for disabling a person', async () => {
    const { person } = await invited('Disabled');
    expect((await admin.browser.post(`/api/people/${person.id}/disable`)).status).toBe(200);
    await expectRow('person.disable', admin.person, `person ${person.id} Disabled`);
  });

  it('for enabling a person', async () => {
    const { person } = await invited('Enabled');
    await setDisabled(t.db, person.id, true);
    expect((await admin.browser.post(`/api/people/${person.id}/enable`)).status).toBe(200);
    await expectRow('person.enable', admin.person, `person ${person.id} Enabled`);
  });

  it('for removing a passkey', async () => {
    const { browser, person } = await signedInPerson(t, 'Key remover', [{ role: 'viewer' }]);
    const key = await addPasskey(browser);
    expect((await browser.post(`/api/auth/passkeys/${key.credentialId.toString('base64url')}/delete`)).status).toBe(
      204,
    );
    await expectRow('passkey.remove', person, `person ${person.id}`);
  });
});

describe('reading needs a role', () => {
  let browser: ConsoleBrowser;
  beforeAll(async () => {
    const signed = await signedInPerson(t, 'Unreadable roles', [{ role: 'viewer' }]);
    browser = signed.browser;
    // Stored roles that no longer parse grant nothing (people.ts), while the session stays.
    await t.db
      .updateTable('console_people')
      .set({ roles: '[{"role":"nope"}]' })
      .where('id', '=', signed.person.id)
      .execute();
  });

  it.each([
    '/api/dashboard',
    '/api/health',
    '/api/submissions',
    '/api/contacts',
    '/api/waitlist',
    '/api/releases',
    '/api/releases/blog/series',
  ])('GET %s with no role that parses is 403', async (path) => {
    expect((await browser.get(path)).status).toBe(403);
  });

  it('while /api/auth/me still answers', async () => {
    const me = await browser.get('/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.person.roles).toEqual([]);
  });
});

it('sign-out everywhere, signed out, is 401', async () => {
  const res = await request(t.app.console).post('/api/auth/logout-everywhere').set('Origin', CONSOLE_ORIGIN).send({});
  expect(res.status).toBe(401);
});
