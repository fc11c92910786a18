/**
 * The console's protections, each test failing when its protection is removed (docs/operations.md, The console):
 * sessions, cookies, same-origin changes, the sign-in limits, invitations, WebAuthn checks, roles, and the public
 * origin serving none of it.
 */
import request from 'supertest';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CONSOLE_ORIGIN,
  ConsoleBrowser,
  register,
  signedInPerson,
  signIn,
  startConsoleTest,
  tokenOf,
  type ConsoleTest,
} from '../../test/consoleHarness';
import { SoftAuthenticator } from '../../test/softAuthenticator';
import { storedReleases } from '../../test/storedReleases';
import { activateStored } from '../releases/store';
import { readManifest } from '../releases/manifestFile';
import { createInvitation } from './invitations';
import { createPerson } from './people';
import { listAudit, personActor } from '../content/audit';
import { currentSession, startSession } from './sessions';
import { REFUSAL_ROW_EVERY_MS, refusalAudit } from './guard';
import type { Request } from 'express';
import { localStores } from '../releases/openReleaseStore';

let t: ConsoleTest;
beforeAll(async () => {
  t = await startConsoleTest({ CONSOLE_SIGN_IN_LIMIT: '1000', CONSOLE_SIGN_IN_PERSON_LIMIT: '1000' });
});
afterAll(() => t.close());

/** A person with an invitation link, not registered yet. */
async function invited(name = 'Invitee', opts: { now?: number; hours?: number } = {}) {
  const person = await createPerson(t.db, { name, roles: [{ role: 'viewer' }] });
  const inv = await createInvitation(t.db, { personId: person.id, origin: CONSOLE_ORIGIN, by: 'test', ...opts });
  return { person, token: tokenOf(inv.link) };
}

describe('sessions', () => {
  it('a session id set before sign-in does not survive it (no fixation), and an earlier session is ended', async () => {
    const { browser, key } = await signedInPerson(t, 'Fixed', [{ role: 'viewer' }]);
    const before = browser.session!;
    // An attacker-chosen id, planted before sign-in, is never adopted ...
    const planted = new ConsoleBrowser(t);
    planted.cookies['__Host-console'] = 'attacker-chosen-session-id-0000000000000';
    expect((await signIn(planted, key)).status).toBe(200);
    expect(planted.session).not.toBe('attacker-chosen-session-id-0000000000000');
    // ... and signing in again in a browser that has a live session gives it a new id and ends the old one.
    expect((await signIn(browser, key)).status).toBe(200);
    expect(browser.session).not.toBe(before);
    const replay = await request(t.app.console).get('/api/auth/me').set('Cookie', `__Host-console=${before}`);
    expect(replay.status).toBe(401);
  });

  it('a session replayed after sign-out, after sign-out everywhere, or after the person is disabled gets 401', async () => {
    const { browser, key, person } = await signedInPerson(t, 'Leaver', [{ role: 'viewer' }]);
    const first = browser.session!;
    expect((await browser.post('/api/auth/logout')).status).toBe(204);
    expect((await request(t.app.console).get('/api/auth/me').set('Cookie', `__Host-console=${first}`)).status).toBe(
      401,
    );

    const other = new ConsoleBrowser(t);
    await signIn(other, key);
    await signIn(browser, key);
    const kept = other.session!;
    expect((await browser.post('/api/auth/logout-everywhere')).status).toBe(204);
    expect((await request(t.app.console).get('/api/auth/me').set('Cookie', `__Host-console=${kept}`)).status).toBe(401);

    const admin = await signedInPerson(t, 'Admin of disable', [{ role: 'admin' }]);
    await signIn(browser, key);
    const live = browser.session!;
    expect((await browser.get('/api/auth/me')).status).toBe(200);
    expect((await admin.browser.post(`/api/people/${person.id}/disable`)).status).toBe(200);
    expect((await request(t.app.console).get('/api/auth/me').set('Cookie', `__Host-console=${live}`)).status).toBe(401);
    // Nor can the disabled person sign in again.
    expect((await signIn(new ConsoleBrowser(t), key)).status).toBe(401);
  });

  it('the cookie is __Host-, Secure, HttpOnly, SameSite=Strict, Path=/, with no Domain; only a hash is stored', async () => {
    const { browser, key } = await signedInPerson(t, 'Cookie', [{ role: 'viewer' }]);
    const options = await browser.post('/api/auth/login/options');
    const res = await browser.post('/api/auth/login/verify', { response: key.authenticate(options.body.options) });
    const line = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('__Host-console='))!;
    const attrs = line.split(';').map((s) => s.trim());
    expect(attrs).toEqual(expect.arrayContaining(['Path=/', 'Secure', 'HttpOnly', 'SameSite=Strict']));
    expect(line).not.toMatch(/domain=/i);
    const id = attrs[0]!.slice('__Host-console='.length);
    expect(id.length).toBeGreaterThanOrEqual(43);
    const stored = await t.db.selectFrom('console_sessions').select('id_hash').execute();
    expect(stored.some((r) => r.id_hash === id)).toBe(false);
  });

  it('ends a session after the idle timeout and after the absolute timeout', async () => {
    const { person } = await signedInPerson(t, 'Timed', [{ role: 'viewer' }]);
    const times = { idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000 };
    const start = Date.now();
    const id = await startSession(t.db, person.id, times, start);
    const req = { headers: { cookie: `__Host-console=${id}` } };
    expect(await currentSession(t.db, req, times, start + 29 * 60_000)).not.toBeNull();
    expect(await currentSession(t.db, req, times, start + 29 * 60_000 + 31 * 60_000)).toBeNull();
    // Kept busy (a request every 20 minutes), it still ends at the absolute timeout.
    const busy = await startSession(t.db, person.id, times, start);
    const busyReq = { headers: { cookie: `__Host-console=${busy}` } };
    let now = start;
    while (now + 20 * 60_000 < start + times.absoluteMs) {
      now += 20 * 60_000;
      expect(await currentSession(t.db, busyReq, times, now)).not.toBeNull();
    }
    expect(await currentSession(t.db, busyReq, times, start + times.absoluteMs)).toBeNull();
    // Sessions that ended without a sign-out are removed when the next one starts.
    const before = await t.db.selectFrom('console_sessions').select('id_hash').execute();
    await startSession(t.db, person.id, times, start + 2 * times.absoluteMs);
    const after = await t.db.selectFrom('console_sessions').select('id_hash').execute();
    expect(after.length).toBe(1);
    expect(before.length).toBeGreaterThan(1);
  });
});

describe('a short idle limit', () => {
  it('keeps a session in use: the idle clock is not counted in whole minutes', async () => {
    const { person } = await signedInPerson(t, 'Short idle', [{ role: 'viewer' }]);
    // The shortest limit configuration allows (CONSOLE_IDLE_MINUTES=1), and a request every 40 seconds.
    const times = { idleMs: 60_000, absoluteMs: 12 * 3_600_000 };
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const id = await startSession(t.db, person.id, times);
      const req = { headers: { cookie: `__Host-console=${id}` } };
      for (let request = 1; request <= 10; request++) {
        vi.advanceTimersByTime(40_000);
        expect(await currentSession(t.db, req, times), `request ${request}, 40 s after the one before`).not.toBeNull();
      }
      // Left alone for the whole limit, it ends.
      vi.advanceTimersByTime(60_000);
      expect(await currentSession(t.db, req, times)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('people', () => {
  it("a change of roles ends the person's sessions; an admin changing their own gets a new id at once", async () => {
    const admin = await signedInPerson(t, 'Role admin', [{ role: 'admin' }]);
    const other = await signedInPerson(t, 'Promoted', [{ role: 'viewer' }]);
    const before = other.browser.session!;
    const r = await admin.browser.post(`/api/people/${other.person.id}/roles`, { roles: [{ role: 'moderator' }] });
    expect(r.status).toBe(200);
    expect((await request(t.app.console).get('/api/auth/me').set('Cookie', `__Host-console=${before}`)).status).toBe(
      401,
    );
    await signIn(other.browser, other.key);
    expect((await other.browser.get('/api/auth/me')).body.person.roles).toEqual([{ role: 'moderator' }]);

    const own = admin.browser.session!;
    const self = await admin.browser.post(`/api/people/${admin.person.id}/roles`, {
      roles: [{ role: 'admin' }, { role: 'viewer' }],
    });
    expect(self.status).toBe(200);
    expect(admin.browser.session).not.toBe(own);
    expect((await request(t.app.console).get('/api/auth/me').set('Cookie', `__Host-console=${own}`)).status).toBe(401);
    expect((await admin.browser.get('/api/auth/me')).status).toBe(200);
  });

  it('recovery: a new link for an existing person works once, and ends the earlier unused one', async () => {
    const admin = await signedInPerson(t, 'Recovery admin', [{ role: 'admin' }]);
    const { person, token: first } = await invited('Lost key');
    const res = await admin.browser.post(`/api/people/${person.id}/invitation`);
    expect(res.status).toBe(200);
    expect(res.body.link).toMatch(new RegExp(`^${CONSOLE_ORIGIN}/invite/[\\w-]{43}$`));
    expect((await new ConsoleBrowser(t).post('/api/auth/invitation', { token: first })).status).toBe(404);
    const browser = new ConsoleBrowser(t);
    expect((await register(browser, tokenOf(res.body.link), new SoftAuthenticator(CONSOLE_ORIGIN))).status).toBe(200);
    expect((await browser.get('/api/auth/me')).body.person.id).toBe(person.id);
  });

  it('the last enabled admin can neither lose the role nor be disabled', async () => {
    const alone = await startConsoleTest();
    try {
      const admin = await signedInPerson(alone, 'Only admin', [{ role: 'admin' }]);
      const demote = await admin.browser.post(`/api/people/${admin.person.id}/roles`, { roles: [{ role: 'viewer' }] });
      expect(demote.status).toBe(409);
      expect((await admin.browser.post(`/api/people/${admin.person.id}/disable`)).status).toBe(409);
      expect((await admin.browser.get('/api/auth/me')).body.person.roles).toEqual([{ role: 'admin' }]);
    } finally {
      await alone.close();
    }
  });
});

describe('same-origin changes', () => {
  it('refuses a cross-site POST, one from another origin and one without Origin, with 403 and no change', async () => {
    const admin = await signedInPerson(t, 'Cross admin', [{ role: 'admin' }]);
    const body = { name: 'Sneaky', roles: [{ role: 'admin' }] };
    const cookie = `__Host-console=${admin.browser.session}`;
    const people = async () => (await admin.browser.get('/api/people')).body.people.length;
    const count = await people();
    const cases: Record<string, string>[] = [
      { Origin: CONSOLE_ORIGIN, 'Sec-Fetch-Site': 'cross-site' },
      { Origin: CONSOLE_ORIGIN, 'Sec-Fetch-Site': 'same-site' },
      { Origin: 'https://site.example', 'Sec-Fetch-Site': 'same-origin' },
      { Origin: 'null' },
      {},
    ];
    for (const headers of cases) {
      const res = await request(t.app.console).post('/api/invitations').set('Cookie', cookie).set(headers).send(body);
      expect(res.status, JSON.stringify(headers)).toBe(403);
    }
    expect(await people()).toBe(count);
    // On the record: one row (an address's refusals are written once a minute, with how many followed).
    const { entries } = await listAudit(t.db, { action: 'console.cross-site' });
    expect(entries.map((e) => [e.actor, e.target, e.outcome, e.summary])).toEqual([
      [
        'anonymous',
        '/api/invitations',
        'refused',
        `refused: a change from another site (Origin ${CONSOLE_ORIGIN}, Sec-Fetch-Site cross-site)`,
      ],
    ]);
    // The same request from the console itself is accepted.
    expect((await admin.browser.post('/api/invitations', body)).status).toBe(201);
  });

  it('writes refusals from one address once a minute, saying how many followed, and never an invitation token', async () => {
    let now = 1_000_000;
    const refused = refusalAudit(t.db, () => now);
    const from = (ip: string) => ({ ip, originalUrl: '/api/people?x=1' }) as Request;
    for (let i = 0; i < 5; i++) await refused(from('192.0.2.7'), 'test.flood', 'refused: flood');
    await refused(from('192.0.2.8'), 'test.flood', 'refused: flood');
    await refused(
      { ip: '192.0.2.9', originalUrl: '/invite/a-secret-token' } as Request,
      'test.flood',
      'refused: flood',
    );
    now += REFUSAL_ROW_EVERY_MS;
    await refused(from('192.0.2.7'), 'test.flood', 'refused: flood');
    const rows = (await listAudit(t.db, { action: 'test.flood' })).entries.reverse();
    expect(rows.map((r) => [r.address, r.target, r.summary])).toEqual([
      ['192.0.2.7', '/api/people', 'refused: flood'],
      ['192.0.2.8', '/api/people', 'refused: flood'],
      ['192.0.2.9', '/invite/[redacted]', 'refused: flood'],
      ['192.0.2.7', '/api/people', 'refused: flood (and 4 more since the last row)'],
    ]);
  });

  it('changes nothing on GET', async () => {
    const admin = await signedInPerson(t, 'Getter', [{ role: 'admin' }]);
    for (const path of ['/api/auth/logout', '/api/auth/logout-everywhere', '/api/people/1/disable'])
      expect((await admin.browser.get(path)).status).toBe(404);
    expect((await admin.browser.get('/api/auth/me')).status).toBe(200);
  });
});

describe('bodies', () => {
  it("a caller without a session gets 401 before any body is read: a post's half megabyte, or bytes that are not JSON", async () => {
    const big = JSON.stringify({ title: 'x', markdown: 'a'.repeat(500_000) });
    for (const [path, body] of [
      ['/api/posts/preview', big],
      ['/api/posts/preview', '[[[[[[not json'],
      ['/api/submissions/1/approve', '{"broken'],
    ] as const) {
      const res = await request(t.app.console)
        .post(path)
        .set('Origin', CONSOLE_ORIGIN)
        .set('Content-Type', 'application/json')
        .send(body);
      expect([path, res.status, res.body.error]).toEqual([path, 401, 'Sign in first.']);
    }
  });
});

describe('sign-in limits', () => {
  it('hold per address when X-Forwarded-For rotates, and per person', async () => {
    const limited = await startConsoleTest({ CONSOLE_SIGN_IN_LIMIT: '3', CONSOLE_SIGN_IN_PERSON_LIMIT: '1000' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push(
          (
            await request(limited.app.console)
              .post('/api/auth/login/options')
              .set('Origin', CONSOLE_ORIGIN)
              .set('X-Forwarded-For', `203.0.113.${i + 1}`)
              .send({})
          ).status,
        );
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      // The refusals are on the audit trail (written once the 429 is sent; once a minute per address).
      await vi.waitFor(async () => {
        const { entries } = await listAudit(limited.db, { action: 'auth.limit' });
        expect(entries.map((e) => [e.actor, e.target, e.outcome])).toEqual([
          ['anonymous', '/api/auth/login/options', 'refused'],
        ]);
      });
    } finally {
      await limited.close();
    }
    // Per person: attempts naming one person's passkey, from addresses the proxy (trusted here) says all differ.
    const perPerson = await startConsoleTest({
      CONSOLE_SIGN_IN_LIMIT: '1000',
      CONSOLE_SIGN_IN_PERSON_LIMIT: '2',
      TRUST_PROXY: 'loopback',
    });
    try {
      const { key } = await signedInPerson(perPerson, 'Target', [{ role: 'viewer' }]);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const browser = new ConsoleBrowser(perPerson);
        const xff = { 'X-Forwarded-For': `198.51.100.${i + 1}` };
        const options = await browser.post('/api/auth/login/options', {}, xff);
        const answer = key.authenticate(options.body.options, { noUserVerification: true });
        statuses.push((await browser.post('/api/auth/login/verify', { response: answer }, xff)).status);
      }
      expect(statuses).toEqual([401, 401, 429, 429]);
      await vi.waitFor(async () => {
        const { entries } = await listAudit(perPerson.db, { action: 'auth.limit' });
        expect(entries.map((e) => e.target)).toEqual(['/api/auth/login/verify', '/api/auth/login/verify']);
      });
    } finally {
      await perPerson.close();
    }
  });

  it('count an answer against a person only when their passkey signed it: naming it is anyone`s to do', async () => {
    const t2 = await startConsoleTest({
      CONSOLE_SIGN_IN_LIMIT: '1000',
      CONSOLE_SIGN_IN_PERSON_LIMIT: '2',
      TRUST_PROXY: 'loopback',
    });
    try {
      const { key, person } = await signedInPerson(t2, 'Named', [{ role: 'viewer' }]);
      const attempt = async (i: number, forge: boolean) => {
        const browser = new ConsoleBrowser(t2);
        const xff = { 'X-Forwarded-For': `198.51.100.${i + 1}` };
        const options = await browser.post('/api/auth/login/options', {}, xff);
        const answer = key.authenticate(options.body.options);
        // The passkey's real id with a signature its key never made.
        const signature = Buffer.from('not this key`s signature').toString('base64url');
        const response = forge ? { ...answer, response: { ...answer.response, signature } } : answer;
        return (await browser.post('/api/auth/login/verify', { response }, xff)).status;
      };
      const forged: number[] = [];
      for (let i = 0; i < 5; i++) forged.push(await attempt(i, true));
      expect(forged).toEqual([401, 401, 401, 401, 401]);
      // The person's budget is whole: they sign in, twice, before it is spent.
      expect([await attempt(10, false), await attempt(11, false), await attempt(12, false)]).toEqual([200, 200, 429]);
      const { entries } = await listAudit(t2.db, { action: 'auth.sign-in' });
      const refused = entries.filter((e) => e.outcome === 'refused');
      expect(refused.map((e) => [e.actor, e.target])).toEqual(Array(5).fill(['anonymous', '-']));
      expect(entries.filter((e) => e.outcome !== 'refused').map((e) => e.actor)).toEqual(
        Array(2).fill(personActor(person)),
      );
    } finally {
      await t2.close();
    }
  });
});

describe('invitations', () => {
  it('work once', async () => {
    const { token } = await invited('Once');
    expect((await register(new ConsoleBrowser(t), token, new SoftAuthenticator(CONSOLE_ORIGIN))).status).toBe(200);
    const again = new ConsoleBrowser(t);
    expect((await again.post('/api/auth/invitation', { token })).status).toBe(410);
    expect((await again.post('/api/auth/register/options', { token })).status).toBe(410);
  });

  it('cannot be used twice even when two registrations race past the first check', async () => {
    const { token } = await invited('Racer');
    const a = new ConsoleBrowser(t);
    const b = new ConsoleBrowser(t);
    const [oa, ob] = [
      await a.post('/api/auth/register/options', { token }),
      await b.post('/api/auth/register/options', { token }),
    ];
    const ra = a.post('/api/auth/register/verify', {
      token,
      response: new SoftAuthenticator(CONSOLE_ORIGIN).register(oa.body.options),
    });
    const rb = b.post('/api/auth/register/verify', {
      token,
      response: new SoftAuthenticator(CONSOLE_ORIGIN).register(ob.body.options),
    });
    const statuses = (await Promise.all([ra, rb])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 410]);
  });

  it('expire (and last at most 24 hours)', async () => {
    const { token } = await invited('Late', { now: Date.now() - 25 * 3_600_000, hours: 48 });
    const res = await new ConsoleBrowser(t).post('/api/auth/invitation', { token });
    expect(res.status).toBe(410);
    expect(res.body.error).toMatch(/expired/);
  });

  it('an unknown link is 404', async () => {
    expect((await new ConsoleBrowser(t).post('/api/auth/invitation', { token: 'x'.repeat(43) })).status).toBe(404);
  });
});

describe('WebAuthn checks', () => {
  it('refuses a replayed sign-in answer (the challenge is used once)', async () => {
    const { key } = await signedInPerson(t, 'Replay', [{ role: 'viewer' }]);
    const browser = new ConsoleBrowser(t);
    const options = await browser.post('/api/auth/login/options');
    const answer = key.authenticate(options.body.options);
    expect((await browser.post('/api/auth/login/verify', { response: answer })).status).toBe(200);
    expect((await browser.post('/api/auth/login/verify', { response: answer })).status).toBe(400);
  });

  it('refuses a cloned authenticator whose signature counter is behind the stored one, and keeps the stored count', async () => {
    const { key, person } = await signedInPerson(t, 'Cloned', [{ role: 'viewer' }]);
    const copy = key.clone();
    // The original signs in twice (counter 1, then 2); the copy's next answer carries 1, a count already seen.
    for (let i = 0; i < 2; i++) expect((await signIn(new ConsoleBrowser(t), key)).status).toBe(200);
    const stored = async () =>
      Number(
        (
          await t.db
            .selectFrom('console_passkeys')
            .select('counter')
            .where('person_id', '=', person.id)
            .executeTakeFirstOrThrow()
        ).counter,
      );
    expect(await stored()).toBe(2);
    const cloned = await signIn(new ConsoleBrowser(t), copy);
    expect(cloned.status).toBe(401);
    expect(await stored()).toBe(2);
    // The original goes on working.
    expect((await signIn(new ConsoleBrowser(t), key)).status).toBe(200);
  });

  it('refuses an answer from another browser than the one given the challenge', async () => {
    const { key } = await signedInPerson(t, 'Other browser', [{ role: 'viewer' }]);
    const asked = new ConsoleBrowser(t);
    const options = await asked.post('/api/auth/login/options');
    const thief = new ConsoleBrowser(t);
    expect(
      (await thief.post('/api/auth/login/verify', { response: key.authenticate(options.body.options) })).status,
    ).toBe(400);
  });

  it.each([
    ['another origin', { origin: 'https://evil.example' }],
    ['another RP ID', { rpId: 'evil.example' }],
    ['no user verification', { noUserVerification: true }],
    ['a registration answer type', { type: 'webauthn.create' }],
  ])('refuses a sign-in with %s', async (_name, tamper) => {
    const { key } = await signedInPerson(t, `Tamper ${_name}`, [{ role: 'viewer' }]);
    const browser = new ConsoleBrowser(t);
    const options = await browser.post('/api/auth/login/options');
    const res = await browser.post('/api/auth/login/verify', {
      response: key.authenticate(options.body.options, tamper),
    });
    expect(res.status).toBe(401);
    expect(browser.session).toBeUndefined();
  });

  it.each([
    ['another origin', { origin: 'https://evil.example' }],
    ['another RP ID', { rpId: 'evil.example' }],
    ['no user verification', { noUserVerification: true }],
  ])('refuses a registration with %s, and the invitation stays usable', async (_name, tamper) => {
    const { token } = await invited(`Register ${_name}`);
    const browser = new ConsoleBrowser(t);
    const options = await browser.post('/api/auth/register/options', { token });
    const key = new SoftAuthenticator(CONSOLE_ORIGIN);
    const res = await browser.post('/api/auth/register/verify', {
      token,
      response: key.register(options.body.options, tamper),
    });
    expect(res.status).toBe(400);
    expect((await browser.post('/api/auth/invitation', { token })).status).toBe(200);
  });

  it('the options require user verification and a discoverable credential', async () => {
    const { token } = await invited('Options');
    const reg = await new ConsoleBrowser(t).post('/api/auth/register/options', { token });
    expect(reg.body.options.authenticatorSelection).toMatchObject({
      userVerification: 'required',
      residentKey: 'required',
    });
    expect(reg.body.options.rp.id).toBe('localhost');
    const login = await new ConsoleBrowser(t).post('/api/auth/login/options');
    expect(login.body.options).toMatchObject({ userVerification: 'required', rpId: 'localhost' });
  });
});

describe('roles', () => {
  it('a moderator cannot change roles, invite, or make a token (403, each refusal in the audit trail)', async () => {
    const mod = await signedInPerson(t, 'Mod', [{ role: 'moderator' }]);
    const r1 = await mod.browser.post(`/api/people/${mod.person.id}/roles`, { roles: [{ role: 'admin' }] });
    const r2 = await mod.browser.post('/api/tokens', { label: 'mine', remotes: ['*'] });
    const r3 = await mod.browser.post('/api/invitations', { name: 'Friend', roles: [{ role: 'admin' }] });
    expect([r1.status, r2.status, r3.status]).toEqual([403, 403, 403]);
    const me = await mod.browser.get('/api/auth/me');
    expect(me.body.person.roles).toEqual([{ role: 'moderator' }]);
    expect(
      await t.db.selectFrom('release_tokens').select('id').where('label', '=', 'mine').executeTakeFirst(),
    ).toBeUndefined();
    const refused = (await listAudit(t.db, { actor: `person:${mod.person.id} ` })).entries.filter(
      (e) => e.outcome === 'refused',
    );
    expect(refused.map((e) => e.action).sort()).toEqual(['person.invite', 'person.roles', 'token.create']);
    expect(refused[0]!.address).not.toBe('');
  });

  it("a release manager of blog changes blog's releases, not directory's", async () => {
    storedReleases(t.releasesDir, 'blog', ['blog-a', 'blog-b']);
    storedReleases(t.releasesDir, 'directory', ['dir-a', 'dir-b']);
    await activateStored('blog', 'blog-a', { ...localStores(t.releasesDir), by: 'test' });
    await activateStored('directory', 'dir-a', { ...localStores(t.releasesDir), by: 'test' });
    const rm = await signedInPerson(t, 'Blog RM', [{ role: 'release-manager', remotes: ['blog'] }]);
    const canary = (remote: string, release: string) =>
      rm.browser.post(`/api/releases/${remote}/canary`, { release, share: 50, confirm: remote, reason: 'try it' });
    expect((await canary('directory', 'dir-b')).status).toBe(403);
    expect(readManifest(t.releasesDir).remotes.directory?.canary).toBeUndefined();
    const ok = await canary('blog', 'blog-b');
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(readManifest(t.releasesDir).remotes.blog?.canary).toMatchObject({ id: 'blog-b', percent: 50 });
    // The reason is in the history and the audit trail.
    expect(readManifest(t.releasesDir).remotes.blog?.history.at(-1)).toMatchObject({ by: 'Blog RM', note: 'try it' });
    const row = (await listAudit(t.db, { action: 'release.canary' })).entries[0]!;
    expect(row).toMatchObject({ actor: `person:${rm.person.id} Blog RM`, target: 'blog', outcome: 'ok' });
    expect(row.summary).toMatch(/reason: try it/);
    // A typed confirmation that is not the remote's name changes nothing.
    const wrong = await rm.browser.post('/api/releases/blog/rollback', { confirm: 'blo', reason: 'oops' });
    expect(wrong.status).toBe(400);
    expect(readManifest(t.releasesDir).remotes.blog?.canary?.id).toBe('blog-b');
    const back = await rm.browser.post('/api/releases/blog/rollback', { confirm: 'blog', reason: 'errors' });
    expect(back.status).toBe(200);
    expect(readManifest(t.releasesDir).remotes.blog?.canary).toBeUndefined();
  });

  it('mass assignment: a role, status or id field in a body is refused and changes nothing', async () => {
    const admin = await signedInPerson(t, 'Mass admin', [{ role: 'admin' }]);
    const invite = await admin.browser.post('/api/invitations', {
      name: 'Extra',
      roles: [{ role: 'viewer' }],
      disabled: false,
      id: 1,
    });
    expect(invite.status).toBe(400);
    expect(invite.body.fieldErrors).toHaveProperty('disabled, id');
    const rm = await admin.browser.post('/api/invitations', {
      name: 'Sneaky RM',
      roles: [{ role: 'viewer', remotes: ['blog'] }],
    });
    expect(rm.status).toBe(400);
    const { token } = await invited('Self-promoter');
    const browser = new ConsoleBrowser(t);
    const options = await browser.post('/api/auth/register/options', { token });
    const res = await browser.post('/api/auth/register/verify', {
      token,
      response: new SoftAuthenticator(CONSOLE_ORIGIN).register(options.body.options),
      roles: [{ role: 'admin' }],
    });
    expect(res.status).toBe(400);
    const mod = await signedInPerson(t, 'Mass mod', [{ role: 'moderator' }]);
    const add = await mod.browser.post('/api/auth/passkeys/add/options', { roles: [{ role: 'admin' }] });
    expect(add.status).toBe(400);
    expect((await mod.browser.get('/api/auth/me')).body.person.roles).toEqual([{ role: 'moderator' }]);
  });
});

describe('the audit trail', () => {
  it('is append-only in the database itself', async () => {
    await signedInPerson(t, 'Audited', [{ role: 'viewer' }]);
    await expect(sql`UPDATE console_audit SET actor = 'someone else'`.execute(t.db)).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM console_audit`.execute(t.db)).rejects.toThrow(/append-only/);
  });

  it('holds no session id, token or passkey', async () => {
    const admin = await signedInPerson(t, 'Secret keeper', [{ role: 'admin' }]);
    const made = await admin.browser.post('/api/tokens', { label: 'audit-check', remotes: ['blog'] });
    expect(made.status).toBe(201);
    const rows = JSON.stringify(await t.db.selectFrom('console_audit').selectAll().execute());
    expect(rows).not.toContain(made.body.token);
    expect(rows).not.toContain(admin.browser.session);
    expect(rows).not.toContain(admin.key.credentialId.toString('base64url'));
  });
});

describe('the public origin', () => {
  it('serves none of the console', async () => {
    const { browser } = await signedInPerson(t, 'Public', [{ role: 'admin' }]);
    const cookie = `__Host-console=${browser.session}`;
    for (const path of ['/api/auth/me', '/api/people', '/api/audit', '/api/dashboard', '/invite/abc', '/api/tokens']) {
      const res = await request(t.app).get(path).set('Cookie', cookie);
      expect(res.status, path).toBe(404);
    }
    for (const path of ['/api/auth/login/options', '/api/invitations', '/api/releases/blog/rollback']) {
      const res = await request(t.app).post(path).set('Cookie', cookie).set('Origin', 'https://site.example').send({});
      expect([401, 404], path).toContain(res.status);
      expect(res.headers['set-cookie'] ?? []).toEqual([]);
    }
  });

  it('the sitemap names none of it', async () => {
    const map = await request(t.app).get('/sitemap.xml');
    expect(map.status).toBe(200);
    expect(map.text).toContain('<urlset');
    expect(map.text).not.toMatch(/8081|invite|console/i);
  });

  it("the console's pages say noindex, are never framed nor stored, under a strict policy", async () => {
    const res = await request(t.app.console).get('/invite/abc');
    expect(res.headers['x-robots-tag']).toMatch(/noindex/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
    expect(res.headers['content-security-policy']).not.toMatch(/unsafe/);
  });
});
