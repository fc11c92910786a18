/**
 * The operator console (docs/operations.md, The console) in Chromium with a virtual authenticator (the DevTools
 * Protocol's WebAuthn domain): a CLI invitation registers the first admin's passkey; the admin invites a moderator
 * and a blog release manager, who register in browsers of their own; the moderator approves a submission (on `/` at
 * once); the release manager starts a 50% canary of a stored blog release, sees its error rate and rolls back
 * (/remotes.json changes), and is refused the directory; the moderator's direct rollback is refused and audited; the
 * audit trail names each actor. Then axe-core on every screen in both schemes, Lighthouse's accessibility score, and a
 * keyboard walk.
 *
 * A server of its own (a copy of the suite's release store, a fresh database), since it changes the blog's release.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { lighthouseReport } from '../../bench/lighthouse';
import { axeViolations, launchBrowser } from '../browser';
import { runApiScript, runReleaseCli, startSite, teamCheckout, type Site } from '../harness';
import { addAuthenticator, eventually, operatorBrowser, registerOperator, type Operator } from '../operators';

const TOOL = 'Console Approved Tool';
let site: Site;
let releasesDir: string;
let checkout: string;
let browser: Browser;
let consoleUrl: string;
/** The blog's releases: the active one (the suite's), and one built here and stored beside it. */
let blogActive: string;
let blogStored: string;

const people: Record<'admin' | 'moderator' | 'releaser', Operator | undefined> = {
  admin: undefined,
  moderator: undefined,
  releaser: undefined,
};

const manifest = () =>
  JSON.parse(readFileSync(join(releasesDir, 'manifest.json'), 'utf8')) as {
    remotes: Record<string, { active: string; canary?: { id: string } }>;
  };
/** The releases /remotes.json names for a browser whose canary bucket is 0 (any canary serves it). */
const remotesJson = async () =>
  (await (await fetch(`${site.baseUrl}/remotes.json`, { headers: { cookie: 'release_bucket=0' } })).json()) as Record<
    string,
    { id: string }
  >;

/** Opens an invitation link in a fresh browser and registers its passkey; the console's dashboard follows. */
const register = (name: string, link: string) => registerOperator(browser, consoleUrl, name, link);

/** The admin fills in the invitation form; returns the one-time link the console shows. */
async function invite(admin: Page, name: string, roles: (form: Locator) => Promise<void>): Promise<string> {
  await admin.getByRole('link', { name: 'People' }).click();
  const form = admin.locator('form', { has: admin.getByRole('heading', { name: 'Invite someone' }) });
  await form.getByLabel('Name', { exact: true }).fill(name);
  await form.getByLabel('viewer').uncheck();
  await roles(form);
  await form.getByRole('button', { name: 'Create the invitation' }).click();
  await admin.getByText(`Invitation for ${name}.`).waitFor();
  return admin.getByLabel('Invitation link').inputValue();
}

/** A same-origin call from the operator's page, as a hand-crafted request from a signed-in browser would be. */
async function directCall(page: Page, path: string, body: unknown): Promise<{ status: number; error?: string }> {
  return page.evaluate(
    async ([p, b]) => {
      const res = await fetch(p as string, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(b),
      });
      return { status: res.status, error: ((await res.json().catch(() => ({}))) as { error?: string }).error };
    },
    [path, body] as const,
  );
}

/** The audit log's rows as text, after filtering by `actor`. */
async function auditRows(admin: Page, actor = ''): Promise<string[]> {
  await admin.goto(`${consoleUrl}/audit`);
  await admin.getByLabel('Actor').fill(actor);
  await admin.getByRole('button', { name: 'Filter' }).click();
  await admin.locator('tbody tr').first().waitFor();
  return admin.locator('tbody tr').allInnerTexts();
}

before(async () => {
  releasesDir = mkdtempSync(join(tmpdir(), 'console-releases-'));
  cpSync(process.env.RELEASES_DIR!, releasesDir, { recursive: true });
  site = await startSite({ releasesDir, console: true });
  consoleUrl = site.consoleUrl!;
  await eventually('the console answers on its own port', async () => {
    try {
      return (await fetch(`${consoleUrl}/api/auth/me`)).status === 401;
    } catch {
      return false;
    }
  });
  // A second blog release, stored beside the active one (started as a canary by the CLI and ended at once).
  // The copy is of the suite's store as earlier specs left it: a canary of theirs ends first.
  if (manifest().remotes.blog!.canary) assert.equal((await runReleaseCli(site.env, ['abort', 'blog'])).status, 0);
  blogActive = manifest().remotes.blog!.active;
  checkout = teamCheckout('mfe-blog', '>Latest Posts<', '>Latest Posts (console)<', /\.tsx$/);
  const r = await runReleaseCli(site.env, ['release', 'blog', '--package-dir', checkout, '--canary', '50']);
  assert.equal(r.status, 0, r.stderr);
  blogStored = manifest().remotes.blog!.canary!.id;
  const abort = await runReleaseCli(site.env, ['abort', 'blog']);
  assert.equal(abort.status, 0, abort.stderr);
  assert.equal(manifest().remotes.blog!.canary, undefined);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await site?.stop();
  rmSync(releasesDir, { recursive: true, force: true });
  if (checkout) rmSync(dirname(checkout), { recursive: true, force: true });
});

describe('the operator console', () => {
  it("serves the app with noindex and a strict CSP, and a CLI invitation registers the first admin's passkey", async () => {
    const res = await fetch(`${consoleUrl}/sign-in`);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /<meta name="robots" content="noindex"/);
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);

    // Run as from another shell: without the server's console settings, the command finds the origin the server
    // recorded at start-up.
    const { CONSOLE_ORIGIN: _origin, CONSOLE_PORT: _port, ...withoutConsole } = site.env;
    const cli = await runApiScript(withoutConsole, 'src/console/cli.ts', [
      'invite',
      '--role',
      'admin',
      '--name',
      'Root Admin',
    ]);
    assert.equal(cli.status, 0, cli.stderr);
    const link = /https?:\/\/\S+\/invite\/\S+/.exec(cli.stdout)?.[0];
    assert.ok(link, `the CLI prints the link:\n${cli.stdout}`);
    assert.ok(link.startsWith(`${consoleUrl}/invite/`), `on the running console's origin: ${link}`);
    assert.equal(cli.stderr, '', 'with no note: the origin is known');
    const admin = (people.admin = await register('Root Admin', link));
    await admin.page.getByText('Root Admin').first().waitFor();

    // The link worked once.
    const again = await browser.newPage();
    await again.goto(link);
    await again.getByRole('alert').waitFor();
    assert.match(await again.getByRole('alert').innerText(), /cannot be used/);
    await again.close();

    // Signed out, the passkey signs the admin in again.
    await admin.page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await admin.page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    await admin.page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await admin.page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  });

  it('the admin invites a moderator and a blog release manager, who register in browsers of their own', async () => {
    const admin = people.admin!.page;
    const modLink = await invite(admin, 'Mo Derator', (form) => form.getByLabel('moderator').check());
    const relLink = await invite(admin, 'Rel Manager', async (form) => {
      await form.getByLabel('release manager').check();
      await form.getByLabel(/Remotes they release/).fill('blog');
    });
    people.moderator = await register('Mo Derator', modLink);
    people.releaser = await register('Rel Manager', relLink);
    // Each sees the sections of their roles only.
    const nav = (p: Page) => p.getByRole('navigation', { name: 'Sections' }).getByRole('link').allInnerTexts();
    assert.ok(!(await nav(people.moderator.page)).includes('People'));
    assert.ok((await nav(people.moderator.page)).includes('Submissions'));
    assert.ok((await nav(admin)).includes('Audit log'));
  });

  it('the moderator approves a pending submission, and the tool is on / at once', async () => {
    const res = await fetch(`${site.baseUrl}/api/submissions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: TOOL,
        email: 'console@example.com',
        website_url: 'https://example.com/console-approved',
        tool_type: 'ai-tool',
        description: 'Approved from the operator console.',
      }),
    });
    assert.equal(res.status, 201);
    // The home page, searched for the tool's name (the first page lists 50 of the catalogue).
    const listed = async () =>
      (await (await fetch(`${site.baseUrl}/?search=${encodeURIComponent(TOOL)}`)).text()).includes(
        'href="/tool/console-approved-tool"',
      );
    assert.equal(await listed(), false, 'not listed before approval');

    const mod = people.moderator!.page;
    await mod.getByRole('link', { name: 'Submissions' }).click();
    await mod.getByRole('checkbox', { name: `Select ${TOOL}` }).check();
    await mod.getByLabel('Category').selectOption('Productivity');
    await mod.getByLabel('Pricing').selectOption('Freemium');
    await mod.getByRole('button', { name: 'Approve selected…' }).click();
    await mod.getByText('Approve 1 submission as Productivity, Freemium?').waitFor();
    await mod.getByRole('button', { name: 'Approve 1 submission' }).click();
    await mod.getByText('Approved 1 submission.').waitFor();
    assert.equal(await listed(), true, 'listed on / once approved');
  });

  it('the blog release manager starts a 50% canary, sees its error rate and rolls it back; the directory is refused', async () => {
    const rel = people.releaser!.page;
    assert.equal((await remotesJson()).blog?.id, blogActive);
    await rel.getByRole('link', { name: 'Releases' }).click();
    const blog = rel.getByRole('region', { name: 'blog', exact: true });
    await blog.getByRole('button', { name: 'Start a canary…' }).click();
    await blog.getByLabel('Release', { exact: true }).selectOption(blogStored);
    await blog.getByLabel('Share of visitors (%)').fill('50');
    await blog.getByLabel('Reason').fill('try the new list heading');
    const start = blog.getByRole('button', { name: 'Start the canary on blog' });
    await blog.getByLabel(/to confirm/).fill('Blog');
    assert.equal(await start.isDisabled(), true, 'the name must be typed exactly');
    await blog.getByLabel(/to confirm/).fill('blog');
    await start.click();
    await rel.getByText(`blog: canary ${blogStored} started at 50%.`).waitFor();
    assert.equal((await remotesJson()).blog?.id, blogStored, 'a browser in the canary is served it');

    // Visitors in the canary's bucket view the blog, and one reports an error with its page's signed token.
    let html = '';
    for (let i = 0; i < 6; i++)
      html = await (await fetch(`${site.baseUrl}/blog`, { headers: { cookie: 'release_bucket=0' } })).text();
    const state = /<script type="application\/json" id="__PAGE_STATE__">(.*?)<\/script>/s.exec(html)?.[1];
    const token = (JSON.parse(state ?? '{}') as { signals?: { blog?: string } }).signals?.blog;
    assert.ok(token, 'the page names a report token for the blog');
    const beacon = await fetch(`${site.baseUrl}/api/signals`, {
      method: 'POST',
      body: JSON.stringify({
        remote: 'blog',
        release: blogStored,
        kind: 'unhandled',
        route: '/blog',
        hash: '0badc0de',
        token,
      }),
    });
    assert.equal(beacon.status, 204);
    const canaryRate = blog.locator('dt', { hasText: `Canary (${blogStored})` }).locator('xpath=following-sibling::dd');
    await eventually('the canary error rate is shown', async () => {
      await rel.reload();
      await canaryRate.waitFor();
      return /\(1 error in \d+ views?\)/.test(await canaryRate.innerText());
    });
    await blog.getByRole('img', { name: /blog: error rate per page view/ }).waitFor();

    // Rolled back from the keyboard: the button, then the typed name (focused), a reason, and the submit button.
    await blog.getByRole('button', { name: 'Roll back…' }).focus();
    await rel.keyboard.press('Enter');
    assert.equal(await blog.getByLabel('Roll back to').inputValue(), '', 'by default the canary ends');
    await rel.keyboard.type('blog');
    await rel.keyboard.press('Tab');
    await rel.keyboard.type('one error in a handful of views');
    await rel.keyboard.press('Tab');
    await rel.keyboard.press('Enter');
    await rel.getByText('blog: rolled back.').waitFor();
    assert.equal((await remotesJson()).blog?.id, blogActive, '/remotes.json names the stable release again');
    assert.equal(manifest().remotes.blog!.canary, undefined);

    // The same on the directory: refused, whatever the page offers.
    assert.equal(await rel.getByRole('region', { name: 'directory' }).getByRole('button').count(), 0);
    const directory = manifest().remotes.directory!.active;
    for (const [action, body] of [
      ['canary', { release: directory, share: 50, confirm: 'directory', reason: 'try' }],
      ['rollback', { confirm: 'directory', reason: 'try' }],
    ] as const) {
      const r = await directCall(rel, `/api/releases/directory/${action}`, body);
      assert.equal(r.status, 403, `${action} on the directory: ${JSON.stringify(r)}`);
    }
  });

  it("the moderator's direct call to roll back is refused, and the refusal is in the audit trail", async () => {
    const r = await directCall(people.moderator!.page, '/api/releases/blog/rollback', {
      confirm: 'blog',
      reason: 'not mine to do',
    });
    assert.equal(r.status, 403);
    assert.equal((await remotesJson()).blog?.id, blogActive, 'nothing changed');
    const rows = await auditRows(people.admin!.page, 'Mo Derator');
    assert.ok(
      rows.some((row) => /rollback/.test(row) && /blog/.test(row) && /refused|denied|forbidden/i.test(row)),
      rows.join('\n'),
    );
  });

  it('the audit trail shows each action with its actor', async () => {
    const rows = await auditRows(people.admin!.page);
    const has = (actor: string, action: RegExp) =>
      assert.ok(
        rows.some((row) => row.includes(actor) && action.test(row)),
        `${actor}: ${action}\n${rows.join('\n')}`,
      );
    has('Root Admin', /person\.invite/);
    has('Mo Derator', /submission\.approve/);
    has('Rel Manager', /release\.canary\s+blog/);
    has('Rel Manager', /release\.canary\s+directory\s+refused/);
    // A rollback while a canary runs ends the canary: the trail records it as the abort it is, with the reason.
    has('Rel Manager', /release\.abort.*one error in a handful of views/);
    has('Mo Derator', /release\.rollback\s+blog\s+refused/);
  });

  it('every screen passes axe-core in light and dark, and the sign-in and invitation pages too', async () => {
    const paths = [
      '/',
      '/submissions',
      '/inbox',
      '/releases',
      '/registry',
      '/tokens',
      '/people',
      '/audit',
      '/passkeys',
    ];
    for (const scheme of ['light', 'dark'] as const) {
      const admin = people.admin!.page;
      await admin.emulateMedia({ colorScheme: scheme });
      for (const path of paths) {
        await admin.goto(consoleUrl + path);
        await admin.getByRole('heading', { level: 1 }).waitFor();
        await admin.waitForFunction(
          () =>
            !Array.from(document.querySelectorAll('[role="status"]')).some((e) => /Loading/.test(e.textContent ?? '')),
        );
        assert.deepEqual(await axeViolations(admin), [], `${path} (${scheme})`);
      }
      // The invitation form with its refusals shown: focus on the first refused field, each reason beside it.
      await admin.goto(`${consoleUrl}/people`);
      const form = admin.locator('form', { has: admin.getByRole('heading', { name: 'Invite someone' }) });
      await form.getByLabel('Name', { exact: true }).fill('Not invited');
      await form.getByLabel('Email (optional)').fill('not-an-address');
      await form.getByLabel('release manager').check();
      await form.getByLabel(/Remotes they release/).fill('nope');
      await form.getByRole('button', { name: 'Create the invitation' }).focus();
      await admin.keyboard.press('Enter');
      await admin.waitForFunction(() => document.activeElement?.id === 'invite-email');
      assert.equal(await form.getByLabel(/Remotes they release/).getAttribute('aria-invalid'), 'true');
      assert.equal(
        await form.getByRole('alert').innerText(),
        'Not invited: check Email (optional) and Remotes they release.',
      );
      assert.equal(await admin.getByText(/roles\.0|Invalid option/).count(), 0, 'no internal terms');
      assert.deepEqual(await axeViolations(admin), [], `/people with a refused invitation (${scheme})`);
      // A release token for a remote that does not exist: its Remotes field is marked and focused.
      await admin.goto(`${consoleUrl}/tokens`);
      await admin.getByLabel('Label', { exact: true }).fill('refused');
      await admin.getByLabel('Remotes (comma-separated)').fill('nope');
      await admin.getByRole('button', { name: 'Create token' }).focus();
      await admin.keyboard.press('Enter');
      await admin.waitForFunction(() => document.activeElement?.id === 'token-remotes');
      assert.equal(await admin.locator('#token-remotes').getAttribute('aria-invalid'), 'true');
      assert.deepEqual(await axeViolations(admin), [], `/tokens with a refused remote (${scheme})`);

      const rel = people.releaser!.page;
      await rel.emulateMedia({ colorScheme: scheme });
      await rel.goto(`${consoleUrl}/releases`);
      await rel.getByRole('region', { name: 'blog', exact: true }).getByRole('button', { name: 'Roll back…' }).click();
      assert.deepEqual(await axeViolations(rel), [], `/releases with a typed confirmation (${scheme})`);

      const { context, page } = await operatorBrowser(browser, scheme);
      await page.goto(`${consoleUrl}/sign-in`);
      await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
      assert.deepEqual(await axeViolations(page), [], `/sign-in (${scheme})`);
      await page.goto(`${consoleUrl}/invite/not-a-real-token`);
      await page.getByRole('alert').waitFor();
      assert.deepEqual(await axeViolations(page), [], `/invite (${scheme})`);
      await context.close();
    }
  });

  it("Lighthouse scores the console's pages 1.0 for accessibility", async () => {
    type Report = {
      finalDisplayedUrl: string;
      categories: { accessibility: { score: number | null } };
      audits: Record<string, { score: number | null; title: string }>;
    };
    const cookie = (await people.admin!.context.cookies(consoleUrl)).map((c) => `${c.name}=${c.value}`).join('; ');
    assert.match(cookie, /__Host-console=/, "the admin's session goes with each page");
    const pages: [string, string[]][] = [
      ['/sign-in', []],
      ...['/', '/submissions', '/releases', '/people', '/audit'].map((p): [string, string[]] => [
        p,
        [`--extra-headers=${JSON.stringify({ Cookie: cookie })}`],
      ]),
    ];
    for (const [path, headers] of pages) {
      const report = await lighthouseReport<Report>(consoleUrl + path, [
        '--only-categories=accessibility',
        '--preset=desktop',
        ...headers,
      ]);
      // A page that sent Lighthouse to the sign-in would be scored as the sign-in.
      assert.equal(report.finalDisplayedUrl, consoleUrl + path, 'the page itself was scored');
      const failing = Object.values(report.audits).filter((a) => a.score === 0);
      assert.equal(report.categories.accessibility.score, 1, `${path}: ${failing.map((a) => a.title).join('; ')}`);
    }
  });

  it('works from the keyboard: the skip link, every control reachable with a visible focus, sections by Enter', async () => {
    const { page } = people.admin!;
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${consoleUrl}/people`);
    await page.getByRole('button', { name: 'Create the invitation' }).waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'main');

    // Tab on to the end of the page: every stop shows a focus ring, and the page's controls are all stops.
    const seen: string[] = [];
    for (let i = 0; i < 100; i++) {
      await page.keyboard.press('Tab');
      const stop = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        const style = getComputedStyle(el);
        return {
          name: el.id || el.getAttribute('aria-label') || el.textContent?.trim() || el.tagName,
          ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
        };
      });
      if (!stop) break;
      assert.ok(stop.ring, `a visible focus on ${stop.name}`);
      seen.push(stop.name);
    }
    for (const control of [
      'invite-name',
      'invite-email',
      'Change roles of Root Admin',
      'Recovery invitation for Mo Derator',
    ])
      assert.ok(seen.includes(control), `${control} is reached by Tab: ${seen.join(' | ')}`);

    // A section opened from the keyboard.
    await page.getByRole('link', { name: 'Releases' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Releases', level: 1 }).waitFor();
  });

  it('the admin adds a named passkey on another device, and removes it; the last one stays', async () => {
    const { page, cdp, authenticatorId } = people.admin!;
    // Another device (Chrome holds one platform authenticator at a time): the session goes on.
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
    await addAuthenticator(cdp);
    await page.goto(`${consoleUrl}/passkeys`);
    await page.getByLabel('Name (optional)').fill('backup key');
    await page.getByRole('button', { name: 'Add a passkey on this device' }).click();
    await page.getByText('Passkey added.').waitFor();
    await page.getByRole('rowheader', { name: 'backup key' }).waitFor();
    await page.getByRole('button', { name: 'Remove backup key' }).click();
    await page.getByText('Passkey backup key removed.').waitFor();
    await page.getByRole('rowheader', { name: 'backup key' }).waitFor({ state: 'detached' });
    assert.equal(await page.getByRole('button', { name: /^Remove / }).isDisabled(), true, 'the only passkey stays');
  });
});
