/**
 * What a console change guarantees beyond its role check (docs/operations.md, The console): the change and its audit
 * row are one transaction, a renewed session keeps the end set at sign-in, two admins taking away each other's role
 * at the same moment leave one admin, and a rename of a tag at the same moment as a save of one of its tools loses
 * neither. "At the same moment": both requests are in the server before either is answered (overlapping(), which
 * holds each until both arrived); on SQLite their transactions then take turns on its one writer, on Postgres they
 * run at once.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overlapping, signedInPerson, startConsoleTest, type ConsoleTest } from '../../test/consoleHarness';
import { insertSubmission, getSubmission } from '../forms/repository';
import { seed } from '../seed';
import { listPeople } from './people';
import { sessionEnd } from './sessions';

let t: ConsoleTest;
beforeAll(async () => {
  t = await startConsoleTest({ CONSOLE_SIGN_IN_LIMIT: '1000', CONSOLE_SIGN_IN_PERSON_LIMIT: '1000' });
  await seed(t.db);
});
afterAll(() => t.close());

const hashOf = (id: string) => createHash('sha256').update(id, 'utf8').digest('hex');

/** Runs `work` while the audit trail cannot be written (the table renamed away), then puts it back. */
async function withoutAuditTrail<T>(work: () => Promise<T>): Promise<T> {
  await sql`ALTER TABLE console_audit RENAME TO console_audit_away`.execute(t.db);
  try {
    return await work();
  } finally {
    await sql`ALTER TABLE console_audit_away RENAME TO console_audit`.execute(t.db);
  }
}

describe('a change and its audit row', () => {
  it('are kept together: when the row cannot be written, the change is undone', async () => {
    const admin = await signedInPerson(t, 'Atomic admin', [{ role: 'admin' }]);
    const moderator = await signedInPerson(t, 'Atomic moderator', [{ role: 'moderator' }]);
    const editor = await signedInPerson(t, 'Atomic editor', [{ role: 'editor' }]);
    const people = (await listPeople(t.db)).length;
    const submission = await insertSubmission(t.db, {
      name: 'Atomic Tool',
      email: 'o@atomic.example',
      website_url: 'https://atomic.example',
      tool_type: 'ai-tool',
      description: 'A tool',
      message: null,
    });

    const answers = await withoutAuditTrail(async () => [
      await admin.browser.post('/api/invitations', { name: 'Never added', roles: [{ role: 'viewer' }] }),
      await admin.browser.post(`/api/people/${moderator.person.id}/disable`),
      await moderator.browser.post('/api/submissions/reject', { ids: [submission], reason: 'Not a tool' }),
      await editor.browser.post('/api/posts', {
        slug: 'never-saved',
        fields: { title: 'Never saved', excerpt: '', category: '', tags: [], author: '', content: '' },
      }),
      await editor.browser.post('/api/auth/logout-everywhere'),
    ]);
    for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBe(500);

    expect((await listPeople(t.db)).length).toBe(people);
    expect((await listPeople(t.db)).find((p) => p.id === moderator.person.id)?.disabled).toBe(false);
    expect(await getSubmission(t.db, submission)).toMatchObject({ status: 'pending' });
    expect((await editor.browser.get('/api/posts/never-saved')).status).toBe(404);
    // The editor's sign-out everywhere was undone with its row: the session still answers.
    expect((await editor.browser.get('/api/auth/me')).status).toBe(200);
  });
});

describe('sessions', () => {
  it("an admin's change of their own roles gives a new id that ends when the old one would have", async () => {
    const admin = await signedInPerson(t, 'Renewing admin', [{ role: 'admin' }]);
    const first = admin.browser.session!;
    const end = await sessionEnd(t.db, hashOf(first));
    expect(end).not.toBeNull();
    await new Promise((r) => setTimeout(r, 20));
    for (let i = 0; i < 2; i++) {
      const res = await admin.browser.post(`/api/people/${admin.person.id}/roles`, { roles: [{ role: 'admin' }] });
      expect(res.status).toBe(200);
      const cookie = String(res.headers['set-cookie']);
      const maxAge = Number(/Max-Age=(\d+)/.exec(cookie)?.[1]);
      expect(maxAge).toBeLessThanOrEqual(Math.floor((end! - Date.now()) / 1000) + 1);
    }
    expect(admin.browser.session).not.toBe(first);
    expect(await sessionEnd(t.db, hashOf(admin.browser.session!))).toBe(end);
    expect(await sessionEnd(t.db, hashOf(first))).toBeNull();
  });
});

describe('the last admin', () => {
  it('two admins taking away each other’s role at the same moment leave one admin', async () => {
    for (let round = 0; round < 4; round++) {
      // Each round starts with exactly these two enabled admins.
      for (const p of await listPeople(t.db))
        if (p.roles.some((r) => r.role === 'admin'))
          await t.db.updateTable('console_people').set({ disabled: 1 }).where('id', '=', p.id).execute();
      const a = await signedInPerson(t, `Race admin A${round}`, [{ role: 'admin' }]);
      const b = await signedInPerson(t, `Race admin B${round}`, [{ role: 'admin' }]);
      const demote = [{ role: 'viewer' }];
      const {
        answers: [ab, ba],
        arrived,
      } = await overlapping(t, [
        (app) => a.browser.post(`/api/people/${b.person.id}/roles`, { roles: demote }, {}, app),
        (app) => b.browser.post(`/api/people/${a.person.id}/roles`, { roles: demote }, {}, app),
      ]);
      expect(arrived, 'both requests were in the server before either was answered').toBe(2);
      const admins = (await listPeople(t.db)).filter((p) => !p.disabled && p.roles.some((r) => r.role === 'admin'));
      expect(admins.length, `round ${round}: ${ab.status} ${ba.status}`).toBe(1);
      expect([ab.status, ba.status].sort()).toEqual([200, expect.any(Number)]);
    }
  });
});

describe('a rename and a save at the same moment', () => {
  it('keep both: the save is kept with the rename, or refused with 409', async () => {
    const { browser: editor } = await signedInPerson(t, 'Racing editor', [{ role: 'editor' }]);
    const slug = 'fetch-mcp-server';
    let tag = 'mcp';
    for (let round = 0; round < 4; round++) {
      const current = (await editor.get(`/api/tools/${slug}`)).body as { version: number; edit: { tags: string[] } };
      expect(current.edit.tags).toContain(tag);
      const description = `Round ${round}: fetches a web page for the model, edited while its tag was renamed.`;
      const next = `${tag}-r${round}`;
      const {
        answers: [rename, save],
        arrived,
      } = await overlapping(t, [
        (app) => editor.post('/api/taxonomy/rename', { kind: 'tag', from: tag, to: next }, {}, app),
        (app) =>
          editor.post(`/api/tools/${slug}`, { base: current.version, edit: { ...current.edit, description } }, {}, app),
      ]);
      expect(arrived, 'both requests were in the server before either was answered').toBe(2);
      expect(rename.status, JSON.stringify(rename.body)).toBe(200);
      expect([200, 409], JSON.stringify(save.body)).toContain(save.status);
      const after = (await editor.get(`/api/tools/${slug}`)).body as { edit: { tags: string[]; description: string } };
      expect(after.edit.tags, `round ${round}`).toContain(next);
      if (save.status === 200) expect(after.edit.description, `round ${round}`).toBe(description);
      tag = next;
    }
  });
});
