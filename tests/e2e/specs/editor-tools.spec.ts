/**
 * Editors change tools in the console (docs/operations.md, Editing content: Tools), in Chromium with a virtual authenticator:
 * a pricing change shows in the home page's filter; a hidden tool's page answers 410 and leaves search and the
 * sitemap; merging a category moves its tools under the filter chip they now belong to; a moderator is refused every
 * editor call; a changed FAQ answer and key feature show on the tool's page (through the page cache); the registry's /v0.1 records still validate against the published schema after an edit; and a
 * restart keeps all of it. On SQLite, and on Postgres when the suite has a server (E2E_DATABASE_URL).
 *
 * A server of its own per database (a fresh database; a copy of the suite's release store), since it changes data.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, launchBrowser, noJsPage, waitForRoute } from '../browser';
import { queryPostgres } from '../db';
import { API_DIR, freePort, runApiScript, startServerProcess, stopServerProcess } from '../harness';
import { registerOperator } from '../operators';

const ADMIN_URL = process.env.E2E_DATABASE_URL;

/** The tools this spec changes (seeded: Trade Ideas is Paid, in Finance & Investment). */
const PRICED = { slug: 'trade-ideas', name: 'Trade Ideas' };
const HIDDEN = { slug: 'd-id', name: 'D-ID' };
const MCP = 'github-mcp-server';
const MERGED = { from: 'Finance & Investment', into: 'Business & Marketing' };
/** Seeded with key features, FAQs and structured plans. */
const LISTS = 'elevenlabs';

/** Every editor call of the console, with a body that a permitted caller would get a 4xx for, never a 403. */
const EDITOR_CALLS: [string, string][] = [
  ['GET', '/api/tools'],
  ['GET', `/api/tools/${PRICED.slug}`],
  ['POST', `/api/tools/${PRICED.slug}`],
  ['POST', `/api/tools/${PRICED.slug}/hide`],
  ['POST', `/api/tools/${PRICED.slug}/unhide`],
  ['GET', `/api/tools/${PRICED.slug}/versions`],
  ['GET', `/api/tools/${PRICED.slug}/versions/1/diff`],
  ['POST', `/api/tools/${PRICED.slug}/versions/1/restore`],
  ['GET', '/api/taxonomy'],
  ['POST', '/api/taxonomy/preview'],
  ['POST', '/api/taxonomy/rename'],
];

const schema = JSON.parse(
  readFileSync(join(API_DIR, 'src', 'registry', 'testdata', 'server.schema.2025-12-11.json'), 'utf8'),
) as object;

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/** A call from the operator's own page (same origin, its session cookie), as the console's code makes them. */
async function call(page: Page, method: string, path: string): Promise<number> {
  return page.evaluate(
    async ([m, p]) =>
      (
        await fetch(p as string, {
          method: m as string,
          headers: m === 'GET' ? {} : { 'Content-Type': 'application/json' },
          body: m === 'GET' ? undefined : '{}',
        })
      ).status,
    [method, path] as const,
  );
}

for (const database of ['SQLite', 'Postgres'] as const)
  describe(
    `editors change tools (${database})`,
    { skip: database === 'Postgres' && !ADMIN_URL ? 'no Postgres server (npm test starts one)' : false },
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'aitools-editor-tools-'));
      const dbName = `aitools_editor_tools_${process.pid}`;
      let env: Record<string, string>;
      let server: ChildProcess;
      let base: string;
      let consoleUrl: string;
      let editor: Page;
      let moderator: Page;

      const invite = async (role: string, name: string) => {
        const cli = await runApiScript(env, 'src/console/cli.ts', ['invite', '--role', role, '--name', name]);
        assert.equal(cli.status, 0, cli.stderr);
        const link = /https?:\/\/\S+\/invite\/\S+/.exec(cli.stdout)?.[0];
        assert.ok(link, cli.stdout);
        return (await registerOperator(browser, consoleUrl, name, link)).page;
      };
      const api = async (path: string) => (await fetch(base + path)).json() as Promise<Record<string, unknown>>;
      /** The names on the home page's cards for a query, server-rendered, read without JavaScript. */
      const homeCards = async (query: string) => {
        const page = await noJsPage(browser);
        try {
          await page.goto(`${base}/?${query}`);
          return (await page.locator('.dir-card__name').allInnerTexts()).map((n) => n.trim());
        } finally {
          await page.context().close();
        }
      };

      before(async () => {
        const port = await freePort();
        const consolePort = await freePort();
        base = `http://localhost:${port}`;
        consoleUrl = `http://localhost:${consolePort}`;
        const releasesDir = join(dir, 'releases');
        cpSync(process.env.RELEASES_DIR!, releasesDir, { recursive: true });
        // DATABASE_URL emptied: a Postgres the test process was given must not take the SQLite run's place.
        let location: Record<string, string> = { DATABASE_PATH: join(dir, 'site.sqlite'), DATABASE_URL: '' };
        if (database === 'Postgres') {
          await queryPostgres(ADMIN_URL!, `DROP DATABASE IF EXISTS ${dbName}`);
          await queryPostgres(ADMIN_URL!, `CREATE DATABASE ${dbName}`);
          const url = new URL(ADMIN_URL!);
          url.pathname = `/${dbName}`;
          location = { DATABASE_URL: url.toString() };
        }
        env = {
          PORT: String(port),
          ...location,
          RELEASES_DIR: releasesDir,
          SITE_ORIGIN: base,
          CONSOLE_PORT: String(consolePort),
          CONSOLE_ORIGIN: consoleUrl,
          NODE_ENV: 'production',
          LOG_LEVEL: 'warn',
          RENDER_BUDGET_MS: '15000',
        };
        server = await startServerProcess(env);
        editor = await invite('editor', 'Ed Itor');
        moderator = await invite('moderator', 'Mo Derator');
      });

      after(async () => {
        await editor?.context().close();
        await moderator?.context().close();
        if (server) await stopServerProcess(server);
        if (database === 'Postgres' && ADMIN_URL) await queryPostgres(ADMIN_URL, `DROP DATABASE IF EXISTS ${dbName}`);
        rmSync(dir, { recursive: true, force: true });
      });

      it("an editor changes a tool's pricing and the home filter reflects it", async () => {
        const query = `type=free&search=${encodeURIComponent(PRICED.name)}`;
        // Other free tools may share a word of its name (the search shows partial matches); it is not among them.
        assert.ok(!(await homeCards(query)).includes(PRICED.name));
        await editor.getByRole('navigation', { name: 'Content' }).getByRole('link', { name: 'Tools' }).click();
        await editor.getByLabel('Search by name or slug').fill(PRICED.slug);
        await editor.getByRole('link', { name: PRICED.name }).click();
        await editor.getByLabel('Pricing').fill('Free');
        await editor.getByRole('button', { name: 'Save', exact: true }).click();
        await editor.getByText('Saved as version 2.').waitFor();
        assert.equal((await homeCards(query))[0], PRICED.name);
      });

      it("a changed FAQ answer and key feature show on the tool's page, through the page cache", async () => {
        const tool = (await api(`/api/tools/${LISTS}`)) as {
          faqs: { question: string; answer: string }[];
          keyFeatures: string[];
        };
        /** The tool page's HTML as the server renders it (the page cache answers a repeat). */
        const pageText = async () => (await fetch(`${base}/tool/${LISTS}`)).text();
        assert.ok((await pageText()).includes(tool.faqs[0]!.answer));
        assert.ok((await pageText()).includes(tool.keyFeatures[0]!));
        await editor.goto(`${consoleUrl}/tools/${LISTS}`);
        await editor
          .getByRole('group', { name: 'FAQ 1' })
          .getByLabel('Answer')
          .fill('An answer edited in the console.');
        await editor
          .getByRole('group', { name: 'Key feature 1' })
          .getByLabel('Title')
          .fill('A feature edited in the console');
        await editor.getByRole('button', { name: 'Save', exact: true }).click();
        await editor.getByText(/^Saved as version \d+\.$/).waitFor();
        const after = await pageText();
        assert.ok(after.includes('An answer edited in the console.'));
        assert.ok(after.includes('A feature edited in the console'));
        assert.ok(!after.includes(tool.faqs[0]!.answer));
        // In the browser: the answer opens under its question.
        const page = await browser.newPage();
        await page.goto(`${base}/tool/${LISTS}`);
        await waitForRoute(page);
        await page.locator('summary', { hasText: tool.faqs[0]!.question }).click();
        await page.getByText('An answer edited in the console.').waitFor({ state: 'visible' });
        await page.close();
      });

      it("a hidden tool's page answers 410 with the not-found screen and leaves search and the sitemap", async () => {
        assert.match(await (await fetch(`${base}/sitemap.xml`)).text(), new RegExp(`/tool/${HIDDEN.slug}<`));
        assert.equal((await homeCards(`search=${HIDDEN.name}`))[0], HIDDEN.name);
        await editor.goto(`${consoleUrl}/tools/${HIDDEN.slug}`);
        // It asks first.
        await editor.getByRole('button', { name: 'Hide this tool…' }).click();
        await editor.getByRole('button', { name: `Hide ${HIDDEN.name}` }).click();
        await editor.getByText('Hidden: its page answers 410 Gone.').waitFor();
        // Without JavaScript: the server's status and screen.
        const plain = await noJsPage(browser);
        const answer = await plain.goto(`${base}/tool/${HIDDEN.slug}`);
        assert.equal(answer?.status(), 410);
        await plain.getByRole('heading', { name: 'AI Tool Not Found' }).waitFor();
        assert.equal(await plain.locator('meta[name="robots"]').getAttribute('content'), 'noindex,nofollow');
        await plain.context().close();
        assert.ok(!(await homeCards(`search=${HIDDEN.name}`)).includes(HIDDEN.name));
        assert.doesNotMatch(await (await fetch(`${base}/sitemap.xml`)).text(), new RegExp(`/tool/${HIDDEN.slug}<`));
      });

      it('merging a category moves its tools, and the filter chips follow', async () => {
        assert.ok(!(await homeCards(`category=${encodeURIComponent(MERGED.into)}`)).includes(PRICED.name));
        await editor.goto(`${consoleUrl}/taxonomy`);
        await editor.getByLabel('From').selectOption(MERGED.from);
        await editor.getByLabel(/^Into/).fill(MERGED.into);
        await editor.getByRole('button', { name: 'Preview' }).click();
        const preview = await editor.getByText(/^Merge: \d+ tools change/).innerText();
        const moved = Number(/(\d+) tools/.exec(preview)![1]);
        assert.ok(moved >= 5, preview);
        await editor.getByRole('button', { name: `Merge ${moved} tools` }).click();
        await editor.getByText(`Merged "${MERGED.from}" into "${MERGED.into}": ${moved} tools changed.`).waitFor();
        // In the browser: the chip of the category the tools moved into lists them; the old one, none.
        const page = await browser.newPage();
        await page.goto(`${base}/`);
        await page.getByRole('list', { name: 'Category' }).getByRole('link', { name: MERGED.into }).click();
        await page.waitForURL(/category=Business/);
        await page.locator('.dir-card', { hasText: PRICED.name }).waitFor();
        await page.getByRole('list', { name: 'Category' }).getByRole('link', { name: MERGED.from }).click();
        await page.waitForURL(/category=Finance/);
        await page.getByText('0 tools found').waitFor();
        await page.close();
      });

      it('a moderator gets 403 on every editor call', async () => {
        for (const [method, path] of EDITOR_CALLS)
          assert.equal(await call(moderator, method, path), 403, `${method} ${path}`);
        // The same calls are the editor's (a 4xx for the empty bodies, never 403).
        for (const [method, path] of EDITOR_CALLS)
          assert.notEqual(await call(editor, method, path), 403, `${method} ${path}`);
      });

      it("the registry's /v0.1 records still validate against the schema after an edit", async () => {
        await editor.goto(`${consoleUrl}/tools/${MCP}`);
        const field = editor.getByLabel(/^MCP registry record/);
        const record = JSON.parse(await field.inputValue()) as { name: string; description: string };
        await field.fill(JSON.stringify({ ...record, description: 'Edited in the console' }, null, 2));
        await editor.getByRole('button', { name: 'Save', exact: true }).click();
        await editor.getByText(/^Saved as version \d+\.$/).waitFor();
        const one = await api(`/v0.1/servers/${encodeURIComponent(record.name)}/versions/latest`);
        assert.equal((one.server as { description: string }).description, 'Edited in the console');
        const ajv = new Ajv({ strict: false, allErrors: true });
        addFormats.default(ajv);
        const validate = ajv.compile(schema);
        const { servers } = (await api('/v0.1/servers?limit=100')) as { servers: { server: { name: string } }[] };
        assert.ok(servers.length > 20);
        for (const { server } of servers)
          assert.ok(validate(server), `${server.name}: ${ajv.errorsText(validate.errors)}`);
      });

      it("the editors' tool screens pass axe (WCAG 2 A/AA) in both colour schemes, a refused field included", async () => {
        for (const scheme of ['light', 'dark'] as const) {
          await editor.emulateMedia({ colorScheme: scheme });
          for (const path of ['/tools', `/tools/${PRICED.slug}`, '/taxonomy']) {
            await editor.goto(consoleUrl + path);
            await editor.getByRole('heading', { level: 1 }).waitFor();
            await editor.waitForFunction(
              () =>
                !Array.from(document.querySelectorAll('[role="status"]')).some((e) =>
                  /Loading/.test(e.textContent ?? ''),
                ),
            );
            if (path.startsWith('/tools/')) {
              const website = editor.getByLabel('Website URL');
              await website.fill('javascript:alert(1)');
              await editor.getByRole('button', { name: 'Save', exact: true }).click();
              await editor
                .getByText(/must be a web address/)
                .first()
                .waitFor();
              assert.equal(await website.getAttribute('aria-invalid'), 'true');
            }
            assert.deepEqual(await axeViolations(editor), [], `${path} (${scheme})`);
          }
        }
      });

      it('a restart keeps every change', async () => {
        await stopServerProcess(server);
        server = await startServerProcess(env);
        assert.equal((await api(`/api/tools/${PRICED.slug}`)).pricing, 'Free');
        assert.equal((await api(`/api/tools/${PRICED.slug}`)).category, MERGED.into);
        assert.equal((await fetch(`${base}/tool/${HIDDEN.slug}`)).status, 410);
        const mcp = await api(`/api/tools/${MCP}`);
        assert.equal((mcp.mcpServer as { description: string }).description, 'Edited in the console');
        assert.equal((await homeCards(`type=free&search=${encodeURIComponent(PRICED.name)}`))[0], PRICED.name);
      });
    },
  );
