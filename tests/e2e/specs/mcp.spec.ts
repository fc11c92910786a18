import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { axeViolations, launchBrowser, openPage, waitForRoute } from '../browser';
import { API_DIR, REPO_ROOT } from '../harness';
import { install, openClient, snippetText } from '../installSection';

const BASE = process.env.BASE_URL!;
let browser: Browser;

// better-sqlite3 is the API's dependency: load it from there, and only ever read.
type ReadOnlyDb = { prepare(sql: string): { all(...params: unknown[]): unknown[] }; close(): void };
const Database = createRequire(join(API_DIR, 'package.json'))('better-sqlite3') as new (
  path: string,
  opts: object,
) => ReadOnlyDb;
function queryDb<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(process.env.DATABASE_PATH!, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

function pnpm(...args: string[]) {
  const r = spawnSync('pnpm', ['--silent', ...args], { cwd: REPO_ROOT, env: process.env, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser.close();
});

/** A page exactly as the server sends it: no script runs. */
async function openWithoutScript(path: string): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const res = await page.goto(`${BASE}${path}`);
  assert.equal(res?.status(), 200, path);
  return page;
}

describe('mcp: install snippets without JavaScript', () => {
  it('an npm package over stdio (Brave Search): each client`s documented shape, secret as a placeholder', async () => {
    const page = await openWithoutScript('/tool/brave-search-mcp-server');
    assert.ok(await install(page).isVisible());
    const desktop = JSON.parse(await snippetText(page, 'claude-desktop'));
    assert.deepEqual(desktop, {
      mcpServers: {
        'brave-search': {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-brave-search'],
          env: { BRAVE_API_KEY: '<BRAVE_API_KEY>' },
        },
      },
    });
    assert.ok(
      await install(page).getByText('~/Library/Application Support/Claude/claude_desktop_config.json').isVisible(),
    );
    const vscode = JSON.parse(await openClient(page, 'VS Code', 'vscode'));
    assert.deepEqual(vscode.inputs[0], {
      type: 'promptString',
      id: 'brave_api_key',
      description: 'Brave Search API key',
      password: true,
    });
    assert.equal(vscode.servers['brave-search'].type, 'stdio');
    assert.match(
      await openClient(page, 'Claude Code', 'claude-code'),
      /^claude mcp add brave-search --transport stdio --env 'BRAVE_API_KEY=<BRAVE_API_KEY>' -- npx -y @modelcontextprotocol\/server-brave-search$/,
    );
    assert.deepEqual(JSON.parse(await openClient(page, 'Cursor', 'cursor')).mcpServers, desktop.mcpServers);
    const cursorLink = await install(page).getByRole('link', { name: 'Add to Cursor' }).getAttribute('href');
    assert.match(cursorLink!, /^cursor:\/\/anysphere\.cursor-deeplink\/mcp\/install\?name=brave-search&config=/);
    // no copy button without script: it could not work
    assert.equal(await install(page).getByRole('button').count(), 0);
    await page.context().close();
  });

  it('a docker image (Grafana): docker run -i --rm -e NAME', async () => {
    const page = await openWithoutScript('/tool/grafana-mcp-server');
    const desktop = JSON.parse(await snippetText(page, 'claude-desktop'));
    assert.equal(desktop.mcpServers.grafana.command, 'docker');
    assert.deepEqual(desktop.mcpServers.grafana.args.slice(0, 4), ['run', '-i', '--rm', '-e']);
    assert.ok(desktop.mcpServers.grafana.args.includes('docker.io/mcp/grafana'));
    const cursor = JSON.parse(await openClient(page, 'Cursor', 'cursor'));
    assert.equal(cursor.mcpServers.grafana.env.GRAFANA_SERVICE_ACCOUNT_TOKEN, '<GRAFANA_SERVICE_ACCOUNT_TOKEN>');
    await page.context().close();
  });

  it('a vendor-hosted remote (Linear): mcp-remote bridge, url entries and --transport http', async () => {
    const page = await openWithoutScript('/tool/linear-mcp-server');
    const desktop = JSON.parse(await snippetText(page, 'claude-desktop'));
    assert.deepEqual(desktop.mcpServers.linear.args, ['-y', 'mcp-remote', 'https://mcp.linear.app/mcp']);
    assert.ok(
      await install(page)
        .getByText(/custom connector/)
        .first()
        .isVisible(),
    );
    assert.deepEqual(JSON.parse(await openClient(page, 'Cursor', 'cursor')), {
      mcpServers: { linear: { url: 'https://mcp.linear.app/mcp' } },
    });
    assert.deepEqual(JSON.parse(await openClient(page, 'VS Code', 'vscode')), {
      servers: { linear: { type: 'http', url: 'https://mcp.linear.app/mcp' } },
    });
    const vscodeLink = await install(page)
      .getByRole('link', { name: 'Install in VS Code' })
      .first()
      .getAttribute('href');
    assert.ok(vscodeLink!.startsWith('vscode:mcp/install?'));
    assert.equal(
      await openClient(page, 'Claude Code', 'claude-code'),
      'claude mcp add linear --transport http https://mcp.linear.app/mcp',
    );
    // its SSE endpoint is offered too, under its own heading
    const sse = install(page).locator('code[data-client="claude-code"][data-variant="remote-1"]');
    assert.equal(await sse.innerText(), 'claude mcp add linear --transport sse https://mcp.linear.app/sse');
    assert.ok(await install(page).getByRole('heading', { name: 'mcp.linear.app/sse (SSE)' }).last().isVisible());
    await page.context().close();
  });
});

describe('mcp: the system choice without JavaScript', () => {
  it('a Windows link that the server answers with cmd /c npx, and back', async () => {
    const page = await openWithoutScript('/tool/brave-search-mcp-server');
    const choice = install(page).getByRole('group', { name: 'Your system:' });
    assert.equal(await choice.getByRole('link', { name: 'macOS/Linux' }).getAttribute('aria-current'), 'true');
    await choice.getByRole('link', { name: 'Windows' }).click();
    await page.waitForURL(/\?os=windows#mcp-install-title$/);
    assert.equal(await choice.getByRole('link', { name: 'Windows' }).getAttribute('aria-current'), 'true');
    assert.deepEqual(JSON.parse(await snippetText(page, 'claude-desktop')).mcpServers['brave-search'], {
      command: 'cmd',
      args: ['/c', 'npx', '-y', '@modelcontextprotocol/server-brave-search'],
      env: { BRAVE_API_KEY: '<BRAVE_API_KEY>' },
    });
    assert.equal(
      await openClient(page, 'Claude Code', 'claude-code'),
      'claude mcp add brave-search --transport stdio --env "BRAVE_API_KEY=<BRAVE_API_KEY>" -- cmd /c npx -y @modelcontextprotocol/server-brave-search',
    );
    await choice.getByRole('link', { name: 'macOS/Linux' }).click();
    await page.waitForURL(/\?os=posix#mcp-install-title$/);
    assert.equal(JSON.parse(await snippetText(page, 'claude-desktop')).mcpServers['brave-search'].command, 'npx');
    await page.context().close();
  });

  it('every remote of Cloudflare, and the optional settings of mcp-atlassian, in the server HTML', async () => {
    const page = await openWithoutScript('/tool/cloudflare-mcp-server');
    const commands = await install(page).locator('code[data-client="claude-code"]').allTextContents(); // inside closed disclosures
    assert.deepEqual(
      commands,
      ['bindings', 'observability', 'docs'].map(
        (h) => `claude mcp add cloudflare-${h} --transport http https://${h}.mcp.cloudflare.com/mcp`,
      ),
    );
    await page.context().close();
    const atlassian = await openWithoutScript('/tool/mcp-atlassian-mcp-server');
    await install(atlassian).getByText('With optional settings (6)').first().click();
    const withOptional = JSON.parse(
      await install(atlassian).locator('code[data-client="claude-desktop"][data-optional]').innerText(),
    );
    assert.equal(withOptional.mcpServers['mcp-atlassian'].env.CONFLUENCE_API_TOKEN, '<CONFLUENCE_API_TOKEN>');
    await atlassian.context().close();
  });
});

describe('mcp: with JavaScript', () => {
  it('the system choice applies in place, by keyboard, and the next server page remembers it', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${BASE}/tool/brave-search-mcp-server`);
    await waitForRoute(page);
    // a mark on the window: it survives only if the choice applies without a page load
    await page.evaluate(() => Object.assign(window, { stayed: true }));
    const windows = install(page).getByRole('group', { name: 'Your system:' }).getByRole('link', { name: 'Windows' });
    await windows.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() =>
      document.querySelector('code[data-client="claude-desktop"]')?.textContent?.includes('"cmd"'),
    );
    assert.equal(await windows.getAttribute('aria-current'), 'true');
    assert.match(page.url(), /\/tool\/brave-search-mcp-server\?os=windows$/);
    assert.equal(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed), true);
    assert.equal(await page.evaluate(() => localStorage.getItem('mcp-install-os')), 'windows');
    // another server's page, with no ?os= in its address: the remembered choice applies
    await page.goto(`${BASE}/tool/slack-mcp-server`);
    await waitForRoute(page);
    await page.waitForFunction(() =>
      document.querySelector('code[data-client="claude-desktop"]')?.textContent?.includes('"/c"'),
    );
    assert.equal(await install(page).getByRole('link', { name: 'Windows' }).getAttribute('aria-current'), 'true');
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('adds a keyboard-usable copy button, and the page passes axe', async () => {
    const { page, errors } = await openPage(browser);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE });
    await page.goto(`${BASE}/tool/linear-mcp-server`);
    await waitForRoute(page);
    const copy = page.getByRole('button', {
      name: 'Copy the Claude Desktop configuration for mcp.linear.app/mcp (Streamable HTTP)',
    });
    await copy.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Copied!' }).waitFor();
    assert.match(await page.evaluate(() => navigator.clipboard.readText()), /"mcp-remote"/);
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});

describe('mcp: search that forgives typos', () => {
  it('the server HTML of /?search=githb offers GitHub', async () => {
    const html = await (await fetch(`${BASE}/?search=githb`)).text();
    assert.match(html, /No AI tools found/);
    assert.match(html, /Did you mean/);
    assert.match(html, /<a href="\/\?search=GitHub"[^>]*>GitHub<\/a>/);
  });

  it('in the browser, the suggestion leads to the GitHub tools', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${BASE}/?search=githb`);
    await waitForRoute(page);
    await page.getByRole('link', { name: 'GitHub', exact: true }).click();
    await page.waitForURL(/search=GitHub/);
    await page
      .getByRole('link', { name: /GitHub MCP Server/ })
      .first()
      .waitFor();
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('/api/tools?search= answers suggestions for postgress and calude', async () => {
    for (const [q, expected] of [
      ['postgress', 'PostgreSQL'],
      ['calude', 'Claude'],
    ]) {
      const body = (await (await fetch(`${BASE}/api/tools?search=${q}`)).json()) as {
        data: unknown[];
        suggestions: string[];
      };
      assert.deepEqual(body.data, []);
      assert.ok(body.suggestions.includes(expected), `${q}: ${body.suggestions}`);
    }
  });
});

describe('mcp: similar tools', () => {
  it('a tool page shows 4-6 similar tools, linked, in the server HTML', async () => {
    const page = await openWithoutScript('/tool/cursor');
    const section = page.getByRole('region', { name: 'Similar tools and alternatives' });
    const links = await section.getByRole('link').evaluateAll((els) => els.map((e) => e.getAttribute('href')));
    assert.ok(links.length >= 4 && links.length <= 6, String(links.length));
    for (const href of links) assert.match(href!, /^\/tool\/[a-z0-9-]+$/);
    assert.ok(!links.includes('/tool/cursor'));
    await page.context().close();
  });
});

describe('mcp: feeds', () => {
  const parser = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'entry' || name === 'link' });
  const text = (v: string | { '#text': string }) => (typeof v === 'string' ? v : v['#text']);

  async function feed(path: string) {
    const res = await fetch(`${BASE}${path}`);
    assert.equal(res.status, 200);
    const xml = await res.text();
    assert.equal(XMLValidator.validate(xml), true, path);
    return parser.parse(xml).feed as { entry: { id: string; title: string | { '#text': string } }[] };
  }

  it('are advertised on pages and listed in the sitemap', async () => {
    const html = await (await fetch(`${BASE}/blog`)).text();
    assert.match(
      html,
      /<link rel="alternate" type="application\/atom\+xml" title="AI Tools Blog" href="\/feeds\/blog\.xml">/,
    );
    assert.match(html, /href="\/feeds\/tools\.xml"/);
    const sitemap = await (await fetch(`${BASE}/sitemap.xml`)).text();
    assert.match(sitemap, /\/feeds\/blog\.xml<\/loc>/);
    assert.match(sitemap, /\/feeds\/tools\.xml<\/loc>/);
  });

  it('validate as XML and list the newest posts and tools from the database', async () => {
    const blog = await feed('/feeds/blog.xml');
    const posts = queryDb<{ slug: string; title: string }>(
      `SELECT slug, title FROM blog_posts WHERE status = 'published' ORDER BY published_at DESC, id DESC`,
    );
    assert.deepEqual(
      blog.entry.map((e) => text(e.title)),
      posts.slice(0, blog.entry.length).map((p) => p.title),
    );
    assert.equal(blog.entry.length, Math.min(posts.length, 50));
    const tools = await feed('/feeds/tools.xml');
    // The first entry is one of the tools updated last (its own date or its server record's, whichever is later).
    const dated = queryDb<{ slug: string; day: string }>(
      `SELECT t.slug, max(coalesce(json_extract(t.doc, '$.lastUpdated'), ''), coalesce(substr(s.updated_at, 1, 10), '')) AS day
       FROM tools t LEFT JOIN mcp_servers s ON s.tool_slug = t.slug`,
    );
    const newestDay = dated
      .map((d) => d.day)
      .sort()
      .at(-1);
    const newest = dated.filter((d) => d.day === newestDay).map((d) => d.slug);
    assert.ok(newest.includes(tools.entry[0].id.replace(/^.*\/tool\//, '')), tools.entry[0].id);
    assert.equal(tools.entry.length, 50);
  });
});

describe('mcp: registry format both ways', () => {
  it('/v0.1/servers answers the registry shape with cursor paging', async () => {
    const first = (await (await fetch(`${BASE}/v0.1/servers?limit=20`)).json()) as {
      servers: { server: { name: string } }[];
      metadata: { nextCursor?: string };
    };
    assert.equal(first.servers.length, 20);
    assert.ok(first.metadata.nextCursor);
    const second = (await (
      await fetch(`${BASE}/v0.1/servers?limit=20&cursor=${first.metadata.nextCursor}`)
    ).json()) as typeof first;
    assert.ok(second.servers[0].server.name > first.servers[19].server.name);
    const one = await fetch(
      `${BASE}/v0.1/servers/${encodeURIComponent('io.github.github/github-mcp-server')}/versions/latest`,
    );
    assert.equal(one.status, 200);
    const body = (await one.json()) as { server: { name: string }; _meta: Record<string, { url: string }> };
    assert.equal(body.server.name, 'io.github.github/github-mcp-server');
    assert.match(body._meta['io.aitoolsdirectory/listing'].url, /\/tool\/github-mcp-server$/);
  });

  it('an imported server.json waits for moderation; once approved its page shows working install snippets', async () => {
    const file = join(API_DIR, 'data', 'mcp-examples', 'local-weather.server.json');
    const imported = pnpm('registry', 'import', file);
    assert.equal(imported.status, 0, imported.stderr);
    assert.match(imported.stdout, /Added 1, updated 0, refused 0\./);
    const [row] = queryDb<{ id: number; status: string }>(
      `SELECT s.id, s.status FROM submissions s JOIN submission_servers ss ON ss.submission_id = s.id WHERE ss.name = 'io.github.user/local-weather'`,
    );
    assert.equal(row.status, 'pending');
    assert.equal((await fetch(`${BASE}/tool/local-weather`)).status, 404);

    const approved = pnpm('moderate', 'approve', String(row.id));
    assert.equal(approved.status, 0, approved.stderr);
    const page = await openWithoutScript('/tool/local-weather');
    const desktop = JSON.parse(await snippetText(page, 'claude-desktop'));
    // Unpinned, as every install snippet: a directory's install command follows the package's releases.
    assert.deepEqual(desktop.mcpServers['local-weather'], {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-weather', '--port=8080'],
      env: { API_KEY: '<API_KEY>' },
    });
    assert.match(
      await openClient(page, 'Claude Code', 'claude-code'),
      /claude mcp add local-weather --transport stdio --env 'API_KEY=<API_KEY>' -- npx/,
    );
    await page.context().close();

    const refused = pnpm('registry', 'import', join(API_DIR, 'data', 'mcp-examples', 'invalid'));
    assert.equal(refused.status, 0);
    assert.match(refused.stdout, /Added 0, updated 0, refused 2\./);
    assert.match(refused.stdout, /refused {2}bad-name-pattern\.json: name: must be reverse-DNS/);
  });
});

describe('mcp: /v0.1 from a page in another origin', () => {
  let other: Server;
  let otherOrigin: string;
  before(async () => {
    // A page of another site (another port is another origin), as a registry client in a browser would be.
    other = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>other site</title>'),
    );
    await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
    otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((done) => other.close(() => done())));

  it('Chromium reads the list and one server after a preflight, and an unknown path answers JSON', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${otherOrigin}/`);
    const answer = await page.evaluate(async (base) => {
      // A custom header makes this a non-simple request: the browser sends it only after a preflight that allows it.
      const list = await fetch(`${base}/v0.1/servers?limit=3`, { headers: { 'X-Registry-Client': 'e2e' } });
      const one = await fetch(
        `${base}/v0.1/servers/${encodeURIComponent('io.github.github/github-mcp-server')}/versions/latest`,
      );
      const missing = await fetch(`${base}/v0.1/no-such-endpoint`);
      return {
        listStatus: list.status,
        names: ((await list.json()) as { servers: { server: { name: string } }[] }).servers.map((s) => s.server.name),
        oneName: ((await one.json()) as { server: { name: string } }).server.name,
        missingStatus: missing.status,
        missingType: missing.headers.get('content-type'),
        missingBody: (await missing.json()) as { error?: string },
      };
    }, BASE);
    assert.equal(answer.listStatus, 200);
    assert.equal(answer.names.length, 3);
    assert.equal(answer.oneName, 'io.github.github/github-mcp-server');
    assert.equal(answer.missingStatus, 404);
    assert.match(answer.missingType ?? '', /^application\/json/);
    assert.equal(typeof answer.missingBody.error, 'string');
    const preflight = await fetch(`${BASE}/v0.1/servers`, {
      method: 'OPTIONS',
      headers: {
        Origin: otherOrigin,
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'x-registry-client',
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-headers'), 'x-registry-client');
    await context.close();
  });
});

describe('mcp: the tools each server offers', () => {
  // From the shipped inspection (pnpm registry inspect), so the test follows a refresh of the data.
  const inspections = JSON.parse(readFileSync(join(API_DIR, 'data', 'mcp-inspections.json'), 'utf8')) as {
    servers: Record<string, { status: string; tools?: { name: string }[] }>;
  };
  const playwright = inspections.servers['playwright-mcp-server']!;

  it('a search for a tool`s name finds its server, in the server HTML of the directory', async () => {
    assert.equal(playwright.status, 'inspected');
    const html = await (await fetch(`${BASE}/?search=browser_navigate`)).text();
    assert.match(html, /href="\/tool\/playwright-mcp-server"/);
  });

  it('in the browser: search for the tool, open its server, and read "Tools (N)" with the parameters', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${BASE}/?search=browser_navigate`);
    await waitForRoute(page);
    await page
      .getByRole('link', { name: /Playwright MCP Server/ })
      .first()
      .click();
    await page.waitForURL(/\/tool\/playwright-mcp-server$/);
    const section = page.getByRole('region', { name: `Tools (${playwright.tools!.length})` });
    await section.waitFor();
    // Its heading reads "browser_navigate Navigate to a URL" (name, then title); browser_navigate_back is another tool.
    await section.getByRole('heading', { level: 3, name: /^browser_navigate(?!_)/ }).waitFor();
    const params = section.getByRole('list', { name: 'Parameters of browser_navigate' });
    assert.match(await params.innerText(), /url string required/);
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('without JavaScript the page already lists the tools, and a server that needs a key says so', async () => {
    const page = await openWithoutScript('/tool/playwright-mcp-server');
    const section = page.getByRole('region', { name: `Tools (${playwright.tools!.length})` });
    assert.equal(await section.getByRole('heading', { level: 3 }).count(), playwright.tools!.length);
    await page.context().close();
    const brave = await openWithoutScript('/tool/brave-search-mcp-server');
    assert.match(
      await brave.getByRole('region', { name: 'Tools', exact: true }).innerText(),
      /Not inspected: needs credentials \(BRAVE_API_KEY\)/,
    );
    await brave.context().close();
  });
});
