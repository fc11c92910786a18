/**
 * The console's write paths follow the same field rules as every other write path (contracts/src/fields.ts): a
 * control, text-direction, invisible or unpaired-surrogate character, or an instant past the year 9999, is refused with
 * 400 naming the field, and nothing is written. Bodies are read by the site's one JSON reader (middleware/body.ts),
 * and a refusal carries the console's security headers.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONSOLE_ORIGIN,
  signedInPerson,
  startConsoleTest,
  type ConsoleBrowser,
  type ConsoleTest,
} from '../../test/consoleHarness';
import { storedReleases } from '../../test/storedReleases';
import { insertSubmission, getSubmission } from '../forms/repository';
import { readManifest } from '../releases/manifestFile';
import { activateStored } from '../releases/store';
import { listAudit } from '../content/audit';
import { listPeople } from './people';
import { localStores } from '../releases/openReleaseStore';

let t: ConsoleTest;
let editor: ConsoleBrowser;
let moderator: ConsoleBrowser;
let admin: ConsoleBrowser;
let releaser: ConsoleBrowser;

const FIELDS = {
  title: 'A clean title',
  excerpt: 'An excerpt.',
  category: 'Guides',
  tags: ['Editing'],
  author: 'Editorial Team',
  content: 'Some text.',
};

beforeAll(async () => {
  t = await startConsoleTest();
  editor = (await signedInPerson(t, 'Rule Editor', [{ role: 'editor' }])).browser;
  moderator = (await signedInPerson(t, 'Rule Moderator', [{ role: 'moderator' }])).browser;
  admin = (await signedInPerson(t, 'Rule Admin', [{ role: 'admin' }])).browser;
  releaser = (await signedInPerson(t, 'Rule Releaser', [{ role: 'release-manager', remotes: ['blog'] }])).browser;
});
afterAll(() => t.close());

const pendingSubmission = () =>
  insertSubmission(t.db, {
    name: 'Rule Tool',
    email: 'o@rule.example',
    website_url: 'https://rule.example',
    tool_type: 'ai-tool',
    description: 'A tool',
    message: null,
  });

describe('posts', () => {
  it.each([
    ['a text-direction control in the title', { title: 'Audit \u202etitle' }, 'fields.title', /U\+202E/],
    ['a NUL in the category', { category: 'Cat\u0000' }, 'fields.category', /control character/],
    ['an unpaired surrogate in the author', { author: 'x\ud800' }, 'fields.author', /unpaired surrogate/],
    ['a text-direction control in a tag', { tags: ['t\u202e'] }, 'fields.tags.0', /text-direction/],
    ['an invisible character in the excerpt', { excerpt: 'ex\u200b' }, 'fields.excerpt', /invisible/],
    ['a control character in the markdown', { content: 'Line\u0007' }, 'fields.content', /control character/],
  ])('a new post with %s is refused, naming the field', async (_name, over, field, reason) => {
    const slug = `rules-${field.replace(/\W/g, '-')}`;
    const res = await editor.post('/api/posts', { slug, fields: { ...FIELDS, ...over } });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.fieldErrors[field]).toMatch(reason);
    expect((await editor.get(`/api/posts/${slug}`)).status).toBe(404);
  });

  it('a save keeps the rules too, and the markdown keeps its tabs and line breaks', async () => {
    const created = await editor.post('/api/posts', { slug: 'rules-save', fields: FIELDS });
    expect(created.status).toBe(201);
    const bad = await editor.post('/api/posts/rules-save', {
      version: 1,
      action: 'save',
      fields: { ...FIELDS, title: 'Evil \u2066title' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors['fields.title']).toMatch(/U\+2066/);
    const good = await editor.post('/api/posts/rules-save', {
      version: 1,
      action: 'save',
      fields: { ...FIELDS, content: 'Code:\r\n\n\tindented' },
    });
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    expect(good.body.post.content).toBe('Code:\n\n\tindented');
  });

  it('a schedule for an instant past the year 9999 in UTC is refused, and the post stays a draft', async () => {
    expect((await editor.post('/api/posts', { slug: 'rules-far', fields: FIELDS })).status).toBe(201);
    const res = await editor.post('/api/posts/rules-far', {
      version: 1,
      action: 'schedule',
      at: '9999-12-31T23:59:59-14:00',
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.fieldErrors)).toEqual(['at']);
    expect((await editor.get('/api/posts/rules-far')).body.post).toMatchObject({ status: 'draft', version: 1 });
    // The last instant the rule allows is taken.
    const ok = await editor.post('/api/posts/rules-far', {
      version: 1,
      action: 'schedule',
      at: '9999-12-31T23:59:59Z',
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it("the live preview takes a seeded post's day or a date and time as its publication, and nothing else", async () => {
    const preview = (published_at: unknown) =>
      editor.post('/api/posts/preview', { slug: 'rules-preview', fields: FIELDS, published_at });
    // This test's server renders no pages: a body the rules take gets 503, one they refuse 400.
    for (const day of ['2026-04-08', '2026-04-08T10:00:00.000Z', null]) expect((await preview(day)).status).toBe(503);
    for (const bad of ['yesterday', '2026-02-30', '9999-12-31T23:59:59-14:00'])
      expect((await preview(bad)).status, bad).toBe(400);
  });
});

describe('moderation', () => {
  it('an approval whose category or pricing breaks the tool field rules is refused, and nothing is published', async () => {
    const id = await pendingSubmission();
    const rtl = await moderator.post('/api/submissions/approve', { ids: [id], category: 'Cat\u202ecd' });
    expect(rtl.status).toBe(400);
    expect(rtl.body.fieldErrors.category).toMatch(/text-direction control \(U\+202E\)/);
    const hidden = await moderator.post('/api/submissions/approve', { ids: [id], pricing: 'x\u200by' });
    expect(hidden.status).toBe(400);
    expect(hidden.body.fieldErrors.pricing).toMatch(/invisible character \(U\+200B\)/);
    expect(await getSubmission(t.db, id)).toMatchObject({ status: 'pending' });
  });

  it('a rejection reason with a control or text-direction character is refused; a reason on several lines is kept', async () => {
    const id = await pendingSubmission();
    const bad = await moderator.post('/api/submissions/reject', { ids: [id], reason: 'bad\u202e\u0000' });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors.reason).toMatch(/Reason contains/);
    expect(await getSubmission(t.db, id)).toMatchObject({ status: 'pending' });
    const ok = await moderator.post('/api/submissions/reject', {
      ids: [id],
      reason: 'Not an AI tool.\nSee the rules.',
    });
    expect(ok.status).toBe(200);
    const [row] = (await listAudit(t.db, { limit: 1 })).entries;
    // The trail keeps each entry on one line.
    expect(row?.summary).toBe('pending -> rejected; reason: Not an AI tool. See the rules.');
  });
});

describe('keys a body may not have', () => {
  it.each(['__proto__', 'constructor', 'toString'])(
    'a key named %s is refused by its name, as any unknown key',
    async (key) => {
      const id = await pendingSubmission();
      // Parsed, so the key is the body's own (an object literal's __proto__ would set its prototype instead).
      const body = JSON.parse(`{"ids":[${id}],"reason":"x","${key}":{"a":1}}`) as object;
      const res = await moderator.post('/api/submissions/reject', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(`Not accepted: ${key}: not a field of this call`);
      expect(Object.keys(res.body.fieldErrors)).toEqual([key]);
      expect(await getSubmission(t.db, id)).toMatchObject({ status: 'pending' });
    },
  );
});

describe('people and passkeys', () => {
  it.each([
    ['a text-direction control', 'Eve\u202ecd', /U\+202E/],
    ['a NUL', 'Eve\u0000cd', /control character/],
    ['an unpaired surrogate', 'Eve\ud800', /unpaired surrogate/],
    ['only zero-width spaces', '\u200b\u200b', /invisible/],
  ])('an invitation for a name with %s is refused and nobody is added', async (_name, name, reason) => {
    const before = (await listPeople(t.db)).length;
    const res = await admin.post('/api/invitations', { name, roles: [{ role: 'viewer' }] });
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors.name).toMatch(reason);
    expect((await listPeople(t.db)).length).toBe(before);
  });

  it("an invitation's refused remote and email are named by the form's labels, once each", async () => {
    const res = await admin.post('/api/invitations', {
      name: 'Rel',
      email: 'not-an-address',
      roles: [{ role: 'release-manager', remotes: ['blog', 'nope'] }],
    });
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors).toEqual({
      email: 'Email must be an address like name@example.com',
      'roles.0.remotes.1': '"nope" is not a remote: they are directory, blog, forms, legal',
    });
    expect(res.body.error).toBe(
      'Not accepted: Email must be an address like name@example.com; ' +
        '"nope" is not a remote: they are directory, blog, forms, legal',
    );
  });

  it("a release token's unknown remote is the Remotes field's reason", async () => {
    const res = await admin.post('/api/tokens', { label: 'ci', remotes: ['nope'] });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.fieldErrors)).toEqual(['remotes']);
    expect(res.body.fieldErrors.remotes).toBe(res.body.error);
    const none = await admin.post('/api/tokens', { label: '', remotes: [] });
    expect(none.body.error).toBe('Not accepted: Label is required; Name at least one remote, or * for every remote');
  });

  it("a passkey's name with a text-direction control is refused", async () => {
    const res = await editor.post('/api/auth/passkeys/add/options', { label: 'Work \u202elaptop' });
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors.label).toMatch(/Passkey name contains a text-direction control/);
  });
});

describe('releases', () => {
  it('a rollback reason with a control character is refused before anything changes', async () => {
    // A blog with a release to go back to: the same call with a clean reason would roll it back.
    storedReleases(t.releasesDir, 'blog', ['rules-a', 'rules-b']);
    await activateStored('blog', 'rules-a', { ...localStores(t.releasesDir), by: 'test' });
    await activateStored('blog', 'rules-b', { ...localStores(t.releasesDir), by: 'test' });
    const before = readManifest(t.releasesDir).remotes.blog;
    const res = await releaser.post('/api/releases/blog/rollback', { confirm: 'blog', reason: 'oops\u001b[2J' });
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors.reason).toMatch(/control character \(U\+001B\)/);
    expect(readManifest(t.releasesDir).remotes.blog).toEqual(before);
    expect((await listAudit(t.db, { action: 'release.rollback' })).entries).toEqual([]);
    // The same call with a clean reason does change it: the refusal above was the rule's.
    const clean = await releaser.post('/api/releases/blog/rollback', { confirm: 'blog', reason: 'oops' });
    expect(clean.status, JSON.stringify(clean.body)).toBe(200);
    expect(readManifest(t.releasesDir).remotes.blog?.active).toBe('rules-a');
  });
});

describe('bodies and refusals', () => {
  it('a body that is not JSON is refused with 415, and bytes that are not UTF-8 with 400', async () => {
    const before = (await listPeople(t.db)).length;
    const plain = await request(t.app.console)
      .post('/api/invitations')
      .set('Cookie', `__Host-console=${admin.session}`)
      .set('Origin', CONSOLE_ORIGIN)
      .set('Content-Type', 'text/plain')
      .send('{"name":"Plain","roles":[{"role":"viewer"}]}');
    expect(plain.status).toBe(415);
    const signIn = await request(t.app.console)
      .post('/api/auth/login/options')
      .set('Origin', CONSOLE_ORIGIN)
      .set('Content-Type', 'text/plain')
      .send('{}');
    expect(signIn.status).toBe(415);
    // Written as bytes: supertest would send a Buffer given to send() as JSON of its own.
    const sending = request(t.app.console)
      .post('/api/invitations')
      .set('Cookie', `__Host-console=${admin.session}`)
      .set('Origin', CONSOLE_ORIGIN)
      .set('Content-Type', 'application/json');
    sending.write(Buffer.from('{"name":"Bob\xff","roles":[{"role":"viewer"}]}', 'latin1'));
    const latin1 = await sending;
    expect(latin1.status).toBe(400);
    expect(latin1.body.error).toBe('Request body is not valid UTF-8');
    expect((await listPeople(t.db)).length).toBe(before);
  });

  it('an address with a NUL is refused with the security headers, on the console and on the site', async () => {
    const onConsole = await request(t.app.console).get('/api/tools/%00');
    expect(onConsole.status).toBe(400);
    expect(onConsole.headers['content-security-policy']).toBeTruthy();
    expect(onConsole.headers['x-content-type-options']).toBe('nosniff');
    for (const path of ['/api/tools?q=%00', '/blog/%00']) {
      const onSite = await request(t.app).get(path).set('Accept', 'text/html');
      expect(onSite.status, path).toBe(400);
      expect(onSite.headers['content-security-policy'], path).toBeTruthy();
      expect(onSite.headers['x-content-type-options'], path).toBe('nosniff');
      expect(onSite.headers['x-frame-options'], path).toBeTruthy();
    }
  });
});
