/**
 * The editors' posts through the console API: drafts stay off the public API until published, a save from an older
 * version is refused with 409 and the newer one, versions are listed, compared and restored, a schedule goes out
 * through the scheduler, a preview link opens the draft to whoever holds it, and every change is audited and bumps
 * the data version when the public sees it.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPerson, startConsoleTest, type ConsoleBrowser, type ConsoleTest } from '../../test/consoleHarness';
import { dataVersion } from '../content/dataVersion';
import { listAudit } from '../content/audit';
import { publishDuePosts } from '../blog/scheduler';
import { MAX_POST_PREVIEWS, POST_PREVIEW_HEADER } from '../blog/preview';
import { RIFF_WEBP } from '../../test/pictures';

let t: ConsoleTest;
let editor: ConsoleBrowser;
let other: ConsoleBrowser;

const FIELDS = {
  title: 'Editing in the console',
  excerpt: 'How editors publish without a deploy.',
  category: 'Guides',
  tags: ['Editing'],
  author: 'Editorial Team',
  content: '## A heading\n\n- one\n- two\n\nA [link](/blog).',
};
const publicPost = (slug: string) => request(t.app).get(`/api/blog/public/posts/${slug}`);
const publicSlugs = async () =>
  ((await request(t.app).get('/api/blog/public/posts')).body.data as { slug: string }[]).map((p) => p.slug);
const version = async () => Number(await dataVersion(t.db));

beforeAll(async () => {
  t = await startConsoleTest();
  editor = (await signedInPerson(t, 'Eddie Tor', [{ role: 'editor' }])).browser;
  other = (await signedInPerson(t, 'Second Editor', [{ role: 'editor' }])).browser;
});
afterAll(() => t.close());

describe('posts in the console', () => {
  it('a new draft is listed for editors, not on the public API, and its save bumps nothing public', async () => {
    const before = await version();
    const res = await editor.post('/api/posts', { slug: 'console-post', fields: FIELDS });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.post).toMatchObject({ slug: 'console-post', status: 'draft', version: 1, title: FIELDS.title });
    expect(await version()).toBe(before);
    expect((await publicPost('console-post')).status).toBe(404);
    const list = await editor.get('/api/posts?search=editing%20in');
    expect(list.body.posts).toEqual([
      expect.objectContaining({ slug: 'console-post', status: 'draft', author: 'Editorial Team', version: 1 }),
    ]);
    expect((await editor.get('/api/posts?status=published')).body.posts).toEqual([]);
    expect((await editor.get('/api/posts?status=nope')).status).toBe(400);
    expect((await editor.post('/api/posts', { slug: 'console-post', fields: FIELDS })).status).toBe(409);
    const badSlug = await editor.post('/api/posts', { slug: 'Bad Slug', fields: { ...FIELDS, title: '' } });
    expect([badSlug.status, badSlug.body.error]).toEqual([
      400,
      'Not accepted: Title is required; Address must be lowercase words (a-z, 0-9) joined by hyphens',
    ]);
    expect(badSlug.body.fieldErrors).toEqual({
      slug: 'Address must be lowercase words (a-z, 0-9) joined by hyphens',
      'fields.title': 'Title is required',
    });
    // The address the live preview's call takes.
    expect((await editor.post('/api/posts', { slug: 'preview', fields: FIELDS })).status).toBe(400);
  });

  it('a long post saves (the posts calls take a larger body than the rest of the console)', async () => {
    const content = 'A long paragraph of text. '.repeat(6000).trim();
    const res = await editor.post('/api/posts', { slug: 'a-long-post', fields: { ...FIELDS, content } });
    expect(res.status).toBe(201);
    expect(res.body.post.content).toBe(content);
    expect((await editor.post('/api/invitations', { name: 'x'.repeat(70_000) })).status).toBe(413);
  });

  it('content at its limit in CJK (3 bytes a character) saves; one character more is refused naming the field', async () => {
    const content = '文'.repeat(200_000);
    const res = await editor.post('/api/posts', { slug: 'a-long-cjk-post', fields: { ...FIELDS, content } });
    expect(res.status, JSON.stringify(res.body).slice(0, 200)).toBe(201);
    expect(res.body.post.content).toBe(content);
    const over = await editor.post('/api/posts', {
      slug: 'too-long-cjk',
      fields: { ...FIELDS, content: `${content}文` },
    });
    expect([over.status, over.body.fieldErrors]).toEqual([
      400,
      { 'fields.content': 'Content must be 200000 characters or less' },
    ]);
  });

  it('two saves of one version: the second is refused with 409 and shown the newer version', async () => {
    const first = await editor.post('/api/posts/console-post', {
      version: 1,
      action: 'save',
      fields: { ...FIELDS, content: 'First editor' },
    });
    expect(first.status).toBe(200);
    expect(first.body.post.version).toBe(2);
    const second = await other.post('/api/posts/console-post', {
      version: 1,
      action: 'save',
      fields: { ...FIELDS, content: 'Second editor' },
    });
    expect(second.status).toBe(409);
    expect(second.body.latest).toMatchObject({ version: 2, body: { content: 'First editor' } });
    expect(second.body.latest.author).toMatch(/Eddie Tor/);
    expect((await editor.get('/api/posts/console-post')).body.post.content).toBe('First editor');
  });

  it('publishing needs the fields a reader sees, then puts the post on the public API and bumps the version', async () => {
    const incomplete = await editor.post('/api/posts/console-post', {
      version: 2,
      action: 'publish',
      fields: { ...FIELDS, excerpt: '', tags: [] },
    });
    expect(incomplete.status).toBe(400);
    expect(Object.keys(incomplete.body.fieldErrors).sort()).toEqual(['excerpt', 'tags']);
    // Each field once, in the editor's words (its labels), never the rules' internal paths or zod's defaults.
    expect(incomplete.body.error).toBe('Not publishable yet: Excerpt is required; At least one tag is required');
    const before = await version();
    const res = await editor.post('/api/posts/console-post', { version: 2, action: 'publish', fields: FIELDS });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.post).toMatchObject({ status: 'published', version: 3 });
    expect(await version()).toBeGreaterThan(before);
    expect((await publicPost('console-post')).body.data).toMatchObject({
      title: FIELDS.title,
      content: FIELDS.content,
    });
    const audit = (await listAudit(t.db, { target: 'post console-post' })).entries.map((e) => e.action);
    expect(audit).toEqual(['post.publish', 'post.save', 'post.create']);
  });

  it('lists, compares and restores versions; a restore keeps the status', async () => {
    const revisions = (await editor.get('/api/posts/console-post/versions')).body.versions;
    expect(revisions.map((r: { version: number }) => r.version)).toEqual([3, 2, 1]);
    const diff = (await editor.get('/api/posts/console-post/versions/2/diff?to=3')).body.lines;
    expect(diff).toEqual(
      expect.arrayContaining([
        { op: '-', text: 'content: "First editor"' },
        { op: '+', text: 'status: "published"' },
      ]),
    );
    expect((await editor.get('/api/posts/console-post/versions/2/diff?to=99')).status).toBe(404);
    expect((await editor.get('/api/posts/console-post/versions/x/diff?to=3')).status).toBe(400);
    // Without ?to=, the changes up to the newest.
    expect((await editor.get('/api/posts/console-post/versions/2/diff')).body.to).toBe(3);
    expect((await editor.get('/api/posts/no-such-post/versions')).status).toBe(404);
    expect((await editor.get('/api/posts/console-post/versions/2')).body.revision.body.content).toBe('First editor');
    for (const v of ['x', '1e999', '99999999999999999999'])
      expect((await editor.get(`/api/posts/console-post/versions/${v}`)).status, v).toBe(400);
    expect((await editor.get('/api/posts/console-post/versions/99')).status).toBe(404);
    const restored = await editor.post('/api/posts/console-post/versions/2/restore', { base: 3 });
    expect(restored.status).toBe(200);
    expect(restored.body.post).toMatchObject({ content: 'First editor', status: 'published', version: 4 });
    expect((await publicPost('console-post')).body.data.content).toBe('First editor');
    expect((await editor.post('/api/posts/console-post/versions/1/restore', { base: 3 })).status).toBe(409);
    expect((await editor.post('/api/posts/console-post/versions/99/restore', { base: 4 })).status).toBe(404);
  });

  it('compares two versions of a post at its size limit that differ in every line, as the whole text replaced', async () => {
    const long = (c: string) => ({ ...FIELDS, content: Array<string>(100_000).fill(c).join('\n') });
    expect((await editor.post('/api/posts', { slug: 'long-diff', fields: long('a') })).status).toBe(201);
    const saved = await editor.post('/api/posts/long-diff', { version: 1, action: 'save', fields: long('b') });
    expect(saved.status, JSON.stringify(saved.body).slice(0, 300)).toBe(200);
    const res = await editor.get('/api/posts/long-diff/versions/1/diff?to=2');
    expect(res.status).toBe(200);
    expect(res.body.whole).toBe(true);
    const ops = (res.body.lines as { op: string }[]).map((l) => l.op).join('');
    expect(ops.replaceAll(' ', '')).toBe('-'.repeat(100_000) + '+'.repeat(100_000));
  });

  it('unpublish takes it off the public API; a schedule goes out when the scheduler finds it due', async () => {
    const un = await editor.post('/api/posts/console-post', { version: 4, action: 'unpublish' });
    expect(un.body.post.status).toBe('draft');
    expect(await publicSlugs()).not.toContain('console-post');
    const past = await editor.post('/api/posts/console-post', {
      version: 5,
      action: 'schedule',
      at: new Date(Date.now() - 1000).toISOString(),
    });
    expect(past.status).toBe(400);
    const at = new Date(Date.now() + 60_000);
    const scheduled = await editor.post('/api/posts/console-post', {
      version: 5,
      action: 'schedule',
      at: at.toISOString(),
    });
    expect(scheduled.body.post).toMatchObject({ status: 'scheduled', published_at: at.toISOString() });
    expect(await publishDuePosts(t.db, 'job:publish-posts')).toEqual([]);
    expect(await publicSlugs()).not.toContain('console-post');
    expect(await publishDuePosts(t.db, 'job:publish-posts', new Date(at.getTime() + 1))).toEqual(['console-post']);
    expect(await publicSlugs()).toContain('console-post');
  });

  // Drawing a cover takes ~150 ms, but the first one also loads fonts and the layout engine.
  it(
    'a preview link opens a draft and its cover to whoever holds it, uncached and noindex; a forged one opens nothing',
    { timeout: 20_000 },
    async () => {
      await editor.post('/api/posts', { slug: 'secret-draft', fields: FIELDS });
      const res = await editor.post('/api/posts/secret-draft/preview-link');
      const link = new URL(res.body.url as string);
      expect(link.origin).toBe('https://site.example');
      const opened = await request(t.app).get(link.pathname + link.search);
      expect(opened.status).toBe(303);
      expect(opened.headers.location).toBe('/blog/secret-draft');
      expect(opened.headers['x-robots-tag']).toMatch(/noindex/);
      const cookie = (opened.headers['set-cookie'] as unknown as string[])[0]!.split(';')[0]!;
      const token = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1));
      const seen = await publicPost('secret-draft').set(POST_PREVIEW_HEADER, token);
      expect(seen.status).toBe(200);
      expect(seen.body.data.title).toBe(FIELDS.title);
      expect(seen.headers['cache-control']).toBe('private, no-store');
      expect(seen.headers['x-robots-tag']).toMatch(/noindex/);
      // The grant is for its own post only, and a changed signature grants nothing.
      expect((await publicPost('console-post').set(POST_PREVIEW_HEADER, token)).body.data.slug).toBe('console-post');
      expect((await request(t.app).get('/api/blog/public/posts/other').set(POST_PREVIEW_HEADER, token)).status).toBe(
        404,
      );
      expect((await publicPost('secret-draft').set(POST_PREVIEW_HEADER, `${token}x`)).status).toBe(404);
      expect((await publicPost('secret-draft')).status).toBe(404);
      const forged = await request(t.app).get(`${link.pathname}?exp=${link.searchParams.get('exp')}&sig=forged`);
      expect(forged.status).toBe(403);
      // Its generated cover, for that browser alone (images/router.ts).
      expect((await request(t.app).get('/covers/secret-draft.png')).status).toBe(404);
      const cover = await request(t.app).get('/covers/secret-draft.png').set('Cookie', cookie);
      expect(cover.status).toBe(200);
      expect(cover.headers['cache-control']).toBe('private, no-store');
    },
  );

  it("a preview link's cookie opens the draft to the browser's own calls, one cookie per post, and is stored by no cache", async () => {
    // The front lane first (app.ts), as the site's server runs it: a 404 sent before the draft existed is not replayed.
    const site = () => request(t.app.handler);
    expect((await site().get('/api/blog/public/posts/second-draft')).status).toBe(404);
    expect((await site().get('/api/blog/public/posts/second-draft')).status).toBe(404);
    await editor.post('/api/posts', { slug: 'second-draft', fields: { ...FIELDS, title: 'The second draft' } });
    const follow = async (slug: string) => {
      const link = new URL((await editor.post(`/api/posts/${slug}/preview-link`)).body.url as string);
      const opened = await site().get(link.pathname + link.search);
      return (opened.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]!);
    };
    // Two links followed in one browser: the second keeps the first.
    const cookies = [...(await follow('secret-draft')), ...(await follow('second-draft'))];
    expect(cookies.map((c) => c.slice(0, c.indexOf('=')))).toEqual([
      'preview_post_secret-draft',
      'preview_post_second-draft',
    ]);
    for (const [slug, title] of [
      ['secret-draft', FIELDS.title],
      ['second-draft', 'The second draft'],
    ]) {
      const seen = await site().get(`/api/blog/public/posts/${slug}`).set('Cookie', cookies.join('; '));
      expect(seen.status, slug).toBe(200);
      expect(seen.body.data.title).toBe(title);
      expect(seen.headers['cache-control']).toBe('private, no-store');
      expect(seen.headers['x-robots-tag']).toMatch(/noindex/);
      // Nothing of it was kept for anyone else, and one post's cookie opens no other.
      expect((await site().get(`/api/blog/public/posts/${slug}`)).status).toBe(404);
    }
    const firstOnly = cookies[0]!;
    expect((await site().get('/api/blog/public/posts/second-draft').set('Cookie', firstOnly)).status).toBe(404);
    const forged = firstOnly.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await site().get('/api/blog/public/posts/secret-draft').set('Cookie', forged)).status).toBe(404);
  });

  it(`a browser keeps at most ${MAX_POST_PREVIEWS} post previews: following one more link drops one, never the new`, async () => {
    const jar = new Map<string, string>();
    for (let i = 0; i <= MAX_POST_PREVIEWS; i++) {
      const slug = `capped-draft-${i}`;
      await editor.post('/api/posts', { slug, fields: { ...FIELDS, title: `Capped ${i}` } });
      const link = new URL((await editor.post(`/api/posts/${slug}/preview-link`)).body.url as string);
      const opened = await request(t.app.handler)
        .get(link.pathname + link.search)
        .set('Cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
      for (const set of opened.headers['set-cookie'] as unknown as string[]) {
        const pair = set.split(';')[0]!;
        const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
        if (value && !/Max-Age=0\b/i.test(set)) jar.set(name, value);
        else jar.delete(name);
      }
    }
    expect(jar.size).toBe(MAX_POST_PREVIEWS);
    expect(jar.has(`preview_post_capped-draft-${MAX_POST_PREVIEWS}`)).toBe(true);
  });

  it(
    "the live preview's cover of a draft is drawn for editors by the console, which may show the site's pictures",
    { timeout: 20_000 },
    async () => {
      const res = await editor.get('/api/posts/secret-draft/cover.png?w=400');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['cache-control']).toBe('no-store');
      expect((res.body as Buffer).readUInt32BE(16)).toBe(400);
      expect(res.headers['content-security-policy']).toMatch(/img-src 'self' data: https:\/\/site\.example;/);
      const wrong = await editor.get('/api/posts/secret-draft/cover.png?w=123');
      expect([wrong.status, wrong.body.error]).toEqual([400, 'w is one of 400, 800, or none for the full width.']);
      expect((await editor.get('/api/posts/no-such-post/cover.png')).status).toBe(404);
      // The WebP copy the blog's <picture> offers first, and no other format.
      const webp = await editor.get('/api/posts/secret-draft/cover.webp?w=400');
      expect([webp.status, webp.headers['content-type']]).toEqual([200, 'image/webp']);
      expect(RIFF_WEBP(webp.body as Buffer)).toBe(true);
      const gif = await editor.get('/api/posts/secret-draft/cover.gif');
      expect([gif.status, gif.body.error]).toEqual([404, 'A cover is a .png or a .webp.']);
    },
  );

  it('a moderator and an admin get 403 on editor calls, audited (every call and role: roles.test.ts)', async () => {
    for (const role of ['moderator', 'admin'] as const) {
      const { browser } = await signedInPerson(t, `Not ${role}`, [{ role }]);
      expect((await browser.get('/api/posts')).status).toBe(403);
      expect(
        (await browser.post('/api/posts/console-post', { version: 6, action: 'save', fields: FIELDS })).status,
      ).toBe(403);
    }
    const refused = (await listAudit(t.db, { action: 'post.edit' })).entries;
    expect(refused.every((e) => e.outcome === 'refused')).toBe(true);
    expect(refused).toHaveLength(2);
  });
});
