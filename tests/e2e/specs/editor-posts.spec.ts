/**
 * Editors publish posts without a deploy (docs/operations.md, Editing content), in Chromium with a virtual
 * authenticator: an editor writes a post with a heading, a list, a link and a code block, and its live preview is the
 * published article's HTML (addresses aside: the site's, and the cover the console draws); a preview link shows the
 * draft and its cover to a fresh browser while /blog, the feed and the sitemap do not; publishing puts it on all three through the page cache; a post scheduled a minute ahead appears on its
 * own (only pages are polled: nothing triggers the scheduler); restoring an older version brings its text back; a
 * moderator gets 403 on every editor call; a restart loses none of it.
 *
 * A server of its own (a copy of the suite's release store, a fresh SQLite database), restarted once; its scheduler
 * checks every second (POST_SCHEDULER_MS).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { axeViolations, launchBrowser } from '../browser';
import { freePort, rememberSecretsIn, runApiScript, startServerProcess, stopServerProcess } from '../harness';
import { eventually, registerOperator, type Operator } from '../operators';
import { XMLParser } from 'fast-xml-parser';
import { parseFeed } from '../../../api/test/feedCheck';

const dir = mkdtempSync(join(tmpdir(), 'aitools-editor-posts-'));
let env: Record<string, string>;
let server: ChildProcess;
let browser: Browser;
let base: string;
let consoleUrl: string;
let editor: Operator;
let moderator: Operator;

const POST = { slug: 'editors-publish-without-a-deploy', title: 'Editors publish without a deploy' };
const LATER = { slug: 'a-post-that-waits-its-turn', title: 'A post that waits its turn' };
const FIRST_TEXT = 'Editors change the site from the console.';
const MARKDOWN = `## Why it matters

${FIRST_TEXT}

- Drafts and versions
- Schedules
- Preview links

Read [the blog](/blog) for more.

\`\`\`ts
const answer = 42;
\`\`\``;

/** The live preview's HTML, taken when the editor had written the post. */
let previewHtml = '';
/** When the second post is due. */
let laterAt: Date;

const text = async (path: string, headers: Record<string, string> = {}) =>
  (await fetch(base + path, { headers })).text();
const linked = (html: string, slug: string) => html.includes(`/blog/${slug}`);
/** An image's natural width once it has loaded or failed (0: it did not load). */
const loadedWidth = (img: Locator) =>
  img.evaluate((el: HTMLImageElement) =>
    el.complete
      ? el.naturalWidth
      : new Promise<number>((resolve) => {
          el.addEventListener('load', () => resolve(el.naturalWidth));
          el.addEventListener('error', () => resolve(0));
        }),
  );
/** The live preview's HTML with the console's three rewrites undone (api/src/console/previewAddresses.ts): the site's
 *  origin before the site's own addresses, and the console's drawing of the post's cover; and (PostEditor's
 *  nestHeadings) its headings two levels down, under the preview's own h2. Nothing else is changed. */
const asOnTheSite = (html: string, slug: string) =>
  html
    .replace(/<(\/?)h([3-6])(?=[\s>])/g, (_, close: string, level: string) => `<${close}h${Number(level) - 2}`)
    .replaceAll(`${base}/`, '/')
    .replace(new RegExp(`/api/posts/${slug}/cover\\.(png|webp)\\?`, 'g'), `/covers/${slug}.$1?`);
/** The address the browser chose for an image (its `<picture>`'s WebP source, where it offers one). */
const chosen = (img: Locator) => img.evaluate((el: HTMLImageElement) => el.currentSrc);

async function invite(role: string, name: string): Promise<string> {
  const cli = await runApiScript(env, 'src/console/cli.ts', ['invite', '--role', role, '--name', name]);
  assert.equal(cli.status, 0, cli.stderr);
  const link = /https?:\/\/\S+\/invite\/\S+/.exec(cli.stdout)?.[0];
  assert.ok(link, cli.stdout);
  return link;
}

/** Starts a new post in the editor and fills in every field a reader sees; leaves it saved as a draft. */
async function writePost(page: Page, post: { slug: string; title: string }, markdown: string): Promise<void> {
  await page.goto(`${consoleUrl}/posts`);
  await page.getByRole('link', { name: 'New post' }).click();
  // The list's search is labelled "Title or address": fill only once the editor is on screen (a router's
  // navigation renders in a transition, which a loaded machine can hold back), and by the fields' exact names.
  await page.getByRole('heading', { name: 'New post', level: 1 }).waitFor();
  await page.getByLabel('Title', { exact: true }).fill(post.title);
  await page.getByLabel('Address', { exact: true }).fill(post.slug);
  await page.getByRole('button', { name: 'Create draft' }).click();
  await page.getByRole('heading', { name: `Edit: ${post.title}` }).waitFor();
  await page.getByLabel('Excerpt').fill(`About ${post.title.toLowerCase()}.`);
  await page.getByLabel('Category').fill('Guides');
  await page.getByLabel('Tags').fill('Editing, Console');
  await page.getByLabel('Author').fill('Editorial Team');
  await page.getByLabel('Markdown').fill(markdown);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText(/^Saved as version \d+\.$/).waitFor();
}

before(async () => {
  const releasesDir = join(dir, 'releases');
  cpSync(process.env.RELEASES_DIR!, releasesDir, { recursive: true });
  const [port, consolePort] = [await freePort(), await freePort()];
  base = `http://localhost:${port}`;
  consoleUrl = `http://localhost:${consolePort}`;
  env = {
    PORT: String(port),
    DATABASE_PATH: join(dir, 'site.sqlite'),
    RELEASES_DIR: releasesDir,
    SITE_ORIGIN: base,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    RENDER_BUDGET_MS: '15000',
    CONSOLE_PORT: String(consolePort),
    CONSOLE_ORIGIN: consoleUrl,
    PREVIEW_SECRET: 'editor-posts-spec',
    POST_SCHEDULER_MS: '1000',
  };
  server = await startServerProcess(env);
  browser = await launchBrowser();
  editor = await registerOperator(browser, consoleUrl, 'Ed Itor', await invite('editor', 'Ed Itor'));
  moderator = await registerOperator(browser, consoleUrl, 'Mo Derator', await invite('moderator', 'Mo Derator'));
});

after(async () => {
  await browser?.close();
  if (server) await stopServerProcess(server);
  rmSync(dir, { recursive: true, force: true });
});

describe('editors publish posts from the console', () => {
  it('an editor writes a post with a heading, a list, a link and a code block, and sees it in the live preview', async () => {
    const { page } = editor;
    await page.getByRole('navigation', { name: 'Content' }).getByRole('link', { name: 'Posts' }).click();
    await writePost(page, POST, MARKDOWN);
    const preview = page.locator('#live-preview');
    await preview.locator('pre code', { hasText: 'const answer = 42;' }).waitFor();
    // The article's headings sit under the preview's own h2: the page keeps one h1 (the editor's).
    assert.equal(await preview.locator('h4').innerText(), 'Why it matters');
    assert.equal(await preview.locator('h3.blog-post__title').innerText(), POST.title);
    assert.deepEqual(await page.locator('h1').allInnerTexts(), [`Edit: ${POST.title}`]);
    assert.equal(await preview.locator('.blog-body li').count(), 3);
    // Its addresses are the site's, and its cover (the site does not draw a draft's) loads from the console.
    assert.equal(await preview.locator('a', { hasText: 'the blog' }).getAttribute('href'), `${base}/blog`);
    const cover = preview.locator('img.blog-post__image');
    assert.match((await cover.getAttribute('src')) ?? '', new RegExp(`^/api/posts/${POST.slug}/cover\\.png\\?v=`));
    assert.ok((await loadedWidth(cover)) > 0, "the live preview's cover loads");
    assert.match(await chosen(cover), new RegExp(`/api/posts/${POST.slug}/cover\\.webp\\?v=`), 'as WebP');
    previewHtml = asOnTheSite(await preview.innerHTML(), POST.slug);
    assert.match(previewHtml, /^<article class="blog-post__article"/);
    // The editor and the list, with the versions and the preview on screen, pass axe-core.
    await page
      .getByRole('button', { name: /^Compare version/ })
      .first()
      .click();
    await page.getByLabel(/^Changes from version/).waitFor();
    assert.deepEqual(await axeViolations(page), [], 'the post editor');
    await page.goto(`${consoleUrl}/posts`);
    await page.getByRole('row', { name: new RegExp(POST.title) }).waitFor();
    assert.deepEqual(await axeViolations(page), [], 'the posts list');
  });

  it("a refused save marks each field beside itself in the form's words, focus lands on the first, and axe passes", async () => {
    const { page } = editor;
    await page.goto(`${consoleUrl}/posts/new`);
    await page.getByRole('heading', { name: 'New post', level: 1 }).waitFor();
    await page.getByLabel('Title', { exact: true }).fill('Not ready yet');
    const address = page.getByLabel('Address', { exact: true });
    await address.fill('Not Ready');
    // From the keyboard: the button pressed with Enter, focus then on the refused field.
    await page.getByRole('button', { name: 'Create draft' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'post-slug');
    assert.equal(await address.getAttribute('aria-invalid'), 'true');
    assert.equal(
      await page.locator('#post-slug-error').innerText(),
      'Address must be lowercase words (a-z, 0-9) joined by hyphens',
    );
    assert.equal(await page.getByRole('alert').innerText(), 'Not created: check Address.');
    assert.deepEqual(await axeViolations(page), [], 'a new post with its refused address shown');
    await address.fill('not-ready-yet');
    assert.equal(await address.getAttribute('aria-invalid'), null, 'fixed, the field is no longer marked');
    assert.equal(await page.getByRole('alert').count(), 0);
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.getByRole('heading', { name: 'Edit: Not ready yet' }).waitFor();

    await page.getByRole('button', { name: 'Publish now' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'post-excerpt');
    const refused = {
      Excerpt: 'Excerpt is required',
      Category: 'Category is required',
      Tags: 'At least one tag is required',
      Author: 'Author is required',
    };
    for (const [label, reason] of Object.entries(refused)) {
      const field = page.getByLabel(label, { exact: true });
      assert.equal(await field.getAttribute('aria-invalid'), 'true', label);
      assert.equal(await page.getByText(reason, { exact: true }).count(), 1, `${reason}, once`);
    }
    assert.equal(await page.getByRole('alert').innerText(), 'Not published: check Excerpt, Category, Tags and Author.');
    assert.equal(await page.getByText(/excerpt:|Too small|expected array/).count(), 0, 'no internal terms');
    assert.deepEqual(await axeViolations(page), [], 'the post editor with its refused fields shown');
    await page.getByLabel('Excerpt', { exact: true }).fill('Now it has one.');
    assert.equal(await page.getByLabel('Excerpt', { exact: true }).getAttribute('aria-invalid'), null);
    assert.equal(await page.getByRole('alert').innerText(), 'Not published: check Category, Tags and Author.');
  });

  it("the tool editor: its refused save focuses the first field, /tool/… opens the site's page, hiding asks first", async () => {
    const { page } = editor;
    await page.goto(`${consoleUrl}/tools/chatgpt`);
    const link = page.getByRole('link', { name: '/tool/chatgpt' });
    assert.equal(await link.getAttribute('href'), `${base}/tool/chatgpt`);
    const name = page.getByLabel('Name', { exact: true });
    await name.fill('');
    await page.getByLabel('Website URL').fill('javascript:alert(1)');
    const save = page.getByRole('button', { name: 'Save', exact: true });
    await save.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'tool-name');
    assert.equal(await name.getAttribute('aria-invalid'), 'true');
    // The note is beside Save, in view with the field, not at the top of the page.
    const note = page.getByRole('alert');
    assert.equal(await note.innerText(), 'Not saved: check Name and Website URL.');
    assert.ok(await note.isVisible());
    assert.deepEqual(await axeViolations(page), [], 'the tool editor with its refused fields shown');

    await page.getByRole('button', { name: 'Hide this tool…' }).click();
    const question = page.getByRole('group', { name: /^Hide ChatGPT\?/ });
    await question.waitFor();
    assert.equal(await question.evaluate((el) => el === document.activeElement), true, 'focus on the question');
    assert.deepEqual(await axeViolations(page), [], 'the tool editor asking before it hides');
    await question.getByRole('button', { name: 'Cancel' }).click();
    assert.equal((await fetch(`${base}/tool/chatgpt`)).status, 200, 'nothing hidden on one click');
    // The site's page answers at the address the link names.
    const context = await browser.newContext();
    const visitor = await context.newPage();
    assert.equal((await visitor.goto(`${base}/tool/chatgpt`))?.status(), 200);
    await context.close();
    // Leave nothing typed behind for the next tests.
    await page.reload();
    await page.getByRole('button', { name: 'Discard them' }).click();
  });

  it('a second post is scheduled a minute ahead', async () => {
    const { page } = editor;
    await writePost(page, LATER, 'It goes out on its own.');
    laterAt = new Date(Math.ceil((Date.now() + 60_000) / 60_000) * 60_000);
    await page.getByLabel('Publish at (UTC)').fill(laterAt.toISOString().slice(0, 16));
    await page.getByRole('button', { name: 'Schedule' }).click();
    await page.getByText(/^Scheduled for .* \(version \d+\)\.$/).waitFor();
    assert.equal(linked(await text('/blog'), LATER.slug), false, 'not on /blog before its time');
  });

  it('a preview link shows the draft to a fresh browser, never cached nor indexed; /blog, the feed and the sitemap do not show it', async () => {
    const { page } = editor;
    await page.goto(`${consoleUrl}/posts/${POST.slug}`);
    await page.getByRole('button', { name: 'Make a preview link' }).click();
    const link = await page.getByLabel('Preview link (24 hours)').inputValue();
    assert.ok(link.startsWith(`${base}/__preview/post/${POST.slug}?`), link);
    rememberSecretsIn(link);

    const context = await browser.newContext();
    const visitor = await context.newPage();
    const res = await visitor.goto(link);
    assert.equal(new URL(visitor.url()).pathname, `/blog/${POST.slug}`);
    assert.equal(res?.status(), 200);
    assert.equal(res?.headers()['cache-control'], 'private, no-store');
    assert.match(res?.headers()['x-robots-tag'] ?? '', /noindex/);
    assert.match((await visitor.locator('meta[name="robots"]').getAttribute('content')) ?? '', /noindex/);
    assert.equal(await visitor.locator('h1.blog-post__title').innerText(), POST.title);
    await visitor.getByRole('complementary', { name: 'Post preview' }).waitFor();
    // Its cover is drawn for this browser, which holds the post's preview, and loads (a draft's cover is 404 to others).
    assert.ok((await loadedWidth(visitor.locator('img.blog-post__image'))) > 0, "the draft's cover loads");
    assert.match(await chosen(visitor.locator('img.blog-post__image')), new RegExp(`/covers/${POST.slug}\\.webp\\?v=`));
    // Its /blog is everyone's.
    await visitor.goto(`${base}/blog`);
    assert.equal(await visitor.locator(`a[href="/blog/${POST.slug}"]`).count(), 0);
    await context.close();

    for (const path of ['/blog', '/feeds/blog.xml', '/sitemap.xml'])
      assert.equal(linked(await text(path), POST.slug), false, `${path} does not list the draft`);
    assert.equal((await fetch(`${base}/blog/${POST.slug}`)).status, 404);
    for (const format of ['png', 'webp'])
      assert.equal((await fetch(`${base}/covers/${POST.slug}.${format}`)).status, 404);
  });

  it('publishing puts it on /blog, the feed and the sitemap through the page cache; its page is the live preview', async () => {
    // The pages as cached before the publish (the second read is the cache's).
    for (const path of ['/blog', '/blog', '/feeds/blog.xml', '/sitemap.xml'])
      assert.equal(linked(await text(path), POST.slug), false);
    const { page } = editor;
    await page.getByRole('button', { name: 'Publish now' }).click();
    await page.getByText(/^Published as version \d+: on \/blog now\.$/).waitFor();
    for (const path of ['/blog', '/feeds/blog.xml', '/sitemap.xml'])
      assert.equal(linked(await text(path), POST.slug), true, `${path} lists the post once published`);

    const context = await browser.newContext();
    const reader = await context.newPage();
    assert.equal((await reader.goto(`${base}/blog/${POST.slug}`))?.status(), 200);
    const article = reader.locator('article.blog-post__article');
    await article.locator('pre code').waitFor();
    assert.equal(await article.evaluate((el) => el.outerHTML), previewHtml);
    await context.close();
  });

  it('restoring an older version brings its text back', async () => {
    const { page } = editor;
    await page.goto(`${consoleUrl}/posts/${POST.slug}`);
    const markdown = page.getByLabel('Markdown');
    await markdown.fill(MARKDOWN.replace(FIRST_TEXT, 'A sentence replaced later.'));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const saved = await page.getByText(/^Saved as version \d+\.$/).innerText();
    const current = Number(/(\d+)/.exec(saved)![1]);
    assert.match(await text(`/blog/${POST.slug}`), /A sentence replaced later\./);

    await page.getByRole('button', { name: `Compare version ${current - 1}` }).click();
    const diff = await page.getByLabel(`Changes from version ${current - 1} to version ${current}`).innerText();
    assert.ok(diff.includes(`- ${FIRST_TEXT}`) && diff.includes('+ A sentence replaced later.'), diff);
    await page.getByRole('button', { name: `Restore version ${current - 1}` }).click();
    await page.getByText(`${current + 1} (current)`).waitFor();
    assert.equal(await markdown.inputValue(), MARKDOWN);
    const html = await text(`/blog/${POST.slug}`);
    assert.ok(html.includes(FIRST_TEXT) && !html.includes('A sentence replaced later.'));
  });

  it('text typed when the session ends elsewhere is kept on the device and offered back after signing in again', async () => {
    const { page, context } = editor;
    await page.goto(`${consoleUrl}/posts/${POST.slug}`);
    const markdown = page.getByLabel('Markdown');
    await page.getByText(/^\d+ \(current\)$/).waitFor();
    const typed = `${await markdown.inputValue()}\n\nKept across a lost session.`;
    // The live preview of the typed text is drawn first: drawn after the sign-out, its 401 would end the screen
    // before Save is pressed (also a lost session, but not the one this test makes).
    const drawn = page.waitForResponse(
      (r) => r.url().endsWith('/api/posts/preview') && !!r.request().postData()?.includes('Kept across a lost session'),
    );
    await markdown.fill(typed);
    await drawn;
    // The editor's sessions are ended from another tab (as from another device).
    const other = await context.newPage();
    await other.goto(`${consoleUrl}/`);
    await other.getByRole('button', { name: 'Sign out everywhere' }).click();
    await other.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    await other.close();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    assert.equal(await markdown.count(), 0, 'the editor is gone with the session');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('heading', { name: `Edit: ${POST.title}` }).waitFor();
    const offer = page.getByRole('group', { name: /were not saved/ });
    await offer.waitFor();
    assert.deepEqual(await axeViolations(page), [], 'the post editor offering the kept text');
    await offer.getByRole('button', { name: 'Restore my unsaved changes' }).click();
    assert.equal(await markdown.inputValue(), typed);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(/^Saved as version \d+\.$/).waitFor();
    assert.match(await text(`/blog/${POST.slug}`), /Kept across a lost session\./);
    // Saved: nothing is kept or offered any more.
    await page.reload();
    await page.getByText(/^\d+ \(current\)$/).waitFor();
    assert.equal(await page.getByRole('group', { name: /were not saved/ }).count(), 0);
  });

  it('a moderator gets 403 on every editor call', async () => {
    const calls: [string, string][] = [
      ['GET', '/api/posts'],
      ['POST', '/api/posts'],
      ['POST', '/api/posts/preview'],
      ['GET', `/api/posts/${POST.slug}`],
      ['POST', `/api/posts/${POST.slug}`],
      ['GET', `/api/posts/${POST.slug}/versions`],
      ['GET', `/api/posts/${POST.slug}/versions/1`],
      ['GET', `/api/posts/${POST.slug}/versions/1/diff?to=2`],
      ['GET', `/api/posts/${POST.slug}/cover.png`],
      ['GET', `/api/posts/${POST.slug}/cover.webp`],
      ['POST', `/api/posts/${POST.slug}/versions/1/restore`],
      ['POST', `/api/posts/${POST.slug}/preview-link`],
    ];
    const statuses = await moderator.page.evaluate(
      async (list) =>
        Promise.all(
          list.map(async ([method, path]) => {
            const res = await fetch(path, {
              method,
              headers: { 'Content-Type': 'application/json' },
              body: method === 'POST' ? JSON.stringify({ version: 1, action: 'publish' }) : undefined,
            });
            return `${method} ${path} ${res.status}`;
          }),
        ),
      calls,
    );
    assert.deepEqual(
      statuses,
      calls.map(([m, p]) => `${m} ${p} 403`),
    );
    // The console does not offer it either.
    await moderator.page.goto(`${consoleUrl}/posts`);
    await moderator.page.getByRole('heading', { name: 'Not available' }).waitFor();
  });

  it('the scheduled post appears on /blog on its own once its time comes', async () => {
    // Only pages are read here: the scheduler's timer publishes it, no request does.
    await eventually(
      `/blog lists the scheduled post after ${laterAt.toISOString()}`,
      async () => linked(await text('/blog'), LATER.slug),
      Math.max(0, laterAt.getTime() - Date.now()) + 60_000,
    );
    assert.ok(Date.now() >= laterAt.getTime(), 'not before its time');
    assert.equal(linked(await text('/feeds/blog.xml'), LATER.slug), true);
  });

  it('a restart loses none of it', async () => {
    await stopServerProcess(server);
    server = await startServerProcess(env);
    const blog = await text('/blog');
    assert.ok(linked(blog, POST.slug) && linked(blog, LATER.slug), 'both posts still on /blog');
    assert.match(await text(`/blog/${POST.slug}`), new RegExp(FIRST_TEXT.replace('.', '\\.')));
    const { page } = editor;
    await eventually('the console answers again', async () => (await fetch(`${consoleUrl}/sign-in`)).ok);
    await page.goto(`${consoleUrl}/posts/${POST.slug}`);
    await page.getByText(/^\d+ \(current\)$/).waitFor();
    const rows = await page
      .getByRole('table', { name: /Versions/ })
      .locator('tbody tr')
      .count();
    assert.ok(rows >= 5, `every version kept (${rows})`);
    await page.goto(`${consoleUrl}/posts`);
    const row = page.getByRole('row', { name: new RegExp(LATER.title) });
    assert.match(await row.innerText(), /Published/);
  });

  it('a title and a category an editor saves with <, &, ]]> and markup leave every feed valid Atom, as text', async () => {
    const title = 'Colors <img src=x onerror=alert(1)> & &amp; ]]> <![CDATA[x]]> "quoted"';
    const category = 'Tips <b>&</b> ]]> <tricks';
    const { page } = editor;
    await page.goto(`${consoleUrl}/posts/${POST.slug}`);
    await page.getByRole('heading', { name: `Edit: ${POST.title}` }).waitFor();
    await page.getByLabel('Title', { exact: true }).fill(title);
    await page.getByLabel('Category').fill(category);
    // A published post's save is what readers get.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(/^Saved as version \d+\.$/).waitFor();

    const xml = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'entry' || name === 'category' });
    for (const path of ['/feeds/blog.xml', '/feeds/tools.xml']) {
      const body = await text(path);
      const read = await parseFeed(body);
      assert.equal(read.type, 'atom', path);
      assert.ok(read.items.length > 0, path);
      assert.doesNotMatch(body, /<(img|b)\b/, `${path} carries no markup from stored text`);
    }
    type Entry = { id: string; title: { '@_type': string; '#text': string }; category: { '@_term': string }[] };
    const entries = xml.parse(await text('/feeds/blog.xml')).feed.entry as Entry[];
    const entry = entries.find((e) => e.id.endsWith(`/blog/${POST.slug}`));
    assert.ok(entry, 'the post is in the blog feed');
    assert.deepEqual(entry.title, { '@_type': 'text', '#text': title });
    assert.deepEqual(
      entry.category.map((c) => c['@_term']),
      [category],
    );
  });
});
