import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleBrowser, signedInPerson, signIn, startConsoleTest, type ConsoleTest } from '../../test/consoleHarness';

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
});
