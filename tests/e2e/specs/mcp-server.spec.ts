/**
 * The site's own MCP server (/mcp) against the production build, as real clients use it: the official conformance
 * suite, the real Claude Code CLI adding it with the command its own tool page shows, and the official SDK's client
 * (search as the home page ranks it, snippets as the page shows them, errors, Origin, the rate limit).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { launchBrowser } from '../browser';
import { REPO_ROOT, startSite, type Site } from '../harness';
import { install, openClient } from '../installSection';
import { claudeHome } from '../../../mfe-directory/test/claudeCodeCli';

const BASE = process.env.BASE_URL!;
const MCP = `${BASE}/mcp`;
const SELF = '/tool/ai-tools-directory-mcp-server';
const run = promisify(execFile);
const requireFrom = (pkg: string) => createRequire(join(REPO_ROOT, pkg, 'package.json'));
const CONFORMANCE = join(
  requireFrom('tests').resolve('@modelcontextprotocol/conformance/package.json'),
  '..',
  'dist',
  'index.js',
);
let browser: Browser;
const clients: Client[] = [];
const temps: string[] = [];

before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await browser.close();
  await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
});

async function openWithoutScript(path: string): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const res = await page.goto(`${BASE}${path}`);
  assert.equal(res?.status(), 200, path);
  return page;
}
async function connect(url = MCP): Promise<Client> {
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return client;
}
async function call(name: string, args: Record<string, unknown>) {
  return (await (await connect()).callTool({ name, arguments: args })) as CallToolResult;
}

/** The scenarios of the suite's server list that a read-only tools server answers (docs/mcp.md lists the rest and
 *  why). tools-call-error calls a tool this server lacks: the answer it checks is the tool error with a reason. */
const SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'tools-call-error',
  'resources-list',
  'dns-rebinding-protection',
];

describe('mcp server: the official conformance suite', () => {
  for (const scenario of SCENARIOS)
    it(`passes ${scenario}`, async () => {
      const out = await mkdtemp(join(tmpdir(), 'mcp-conformance-'));
      temps.push(out);
      const r = await run(process.execPath, [CONFORMANCE, 'server', '--url', MCP, '--scenario', scenario, '-o', out], {
        timeout: 120_000,
      }).catch((err: { stdout?: string; stderr?: string; code?: number }) => err);
      const checks: { id: string; status: string; errorMessage?: string }[] = [];
      for (const dir of await readdir(out, { recursive: true }))
        if (dir.endsWith('checks.json')) checks.push(...JSON.parse(await readFile(join(out, dir), 'utf8')));
      assert.ok(checks.length > 0, `no results from ${scenario}: ${r.stdout}${r.stderr}`);
      const failed = checks.filter((c) => c.status !== 'SUCCESS' && c.status !== 'INFO');
      assert.deepEqual(failed, [], `${scenario}: ${r.stdout}`);
    });
});

describe('mcp server: the real Claude Code CLI', () => {
  it('adds the server with the command its own tool page shows, and reports it connected', async () => {
    const page = await openWithoutScript(SELF);
    const command = await openClient(page, 'Claude Code', 'claude-code');
    assert.equal(command, `claude mcp add ai-tools-directory --transport http ${MCP}`);
    // The Claude Code CLI the install snippets are already held to (mfe-directory's claudeCodeCli.test.ts).
    const home = await claudeHome();
    temps.push(home.home);
    const claude = (args: string[]) => home.claude(args, 60_000);
    // The page's words are plain (no quoting needed): the CLI gets them as the shell would split them.
    await claude(command.split(' ').slice(1));
    const listed = (await claude(['mcp', 'list'])).stdout;
    assert.match(listed, new RegExp(`ai-tools-directory: ${MCP.replace(/[.]/g, '\\.')} \\(HTTP\\) - [✓✔] Connected`));
    const got = (await claude(['mcp', 'get', 'ai-tools-directory'])).stdout;
    assert.match(got, /Status: [✓✔] Connected/);
    assert.match(got, new RegExp(`URL: ${MCP.replace(/[.]/g, '\\.')}`));
  });
});

describe('mcp server: listed like any server', () => {
  it('its /v0.1 record names this site`s /mcp, and /llms.txt and robots.txt point agents to it', async () => {
    const res = await fetch(
      `${BASE}/v0.1/servers/${encodeURIComponent('io.aitoolsdirectory/directory')}/versions/latest`,
    );
    assert.equal(res.status, 200);
    const { server, _meta } = (await res.json()) as {
      server: { remotes: { type: string; url: string }[] };
      _meta: Record<string, { url?: string }>;
    };
    assert.deepEqual(server.remotes, [{ type: 'streamable-http', url: MCP }]);
    assert.match(_meta['io.aitoolsdirectory/listing']!.url!, new RegExp(`${SELF}$`));
    const llms = await (await fetch(`${BASE}/llms.txt`)).text();
    assert.match(llms, /^# AI Tools Directory\n\n> /);
    assert.ok(llms.includes(`${SELF})`), 'llms.txt lists the server`s page');
    assert.match(
      await (await fetch(`${BASE}/robots.txt`)).text(),
      /^# For language models and agents: \S+\/llms\.txt$/m,
    );
  });
});

describe('mcp server: the SDK client against the production build', () => {
  it('search_tools for a task phrasing gives the home page`s first results, with their addresses', async () => {
    let found = 0;
    for (const text of ['image generation', 'browser automation', 'transcribe meetings']) {
      const page = await openWithoutScript(`/?search=${encodeURIComponent(text)}`);
      const onPage = await page
        .locator('article.dir-card')
        .evaluateAll((cards) => cards.map((c) => c.querySelector('a[href^="/tool/"]')!.getAttribute('href')!));
      await page.context().close();
      const res = await call('search_tools', { text, limit: 10 });
      const results = (res.structuredContent as { results: { slug: string; url: string }[] }).results;
      assert.deepEqual(
        results.map((r) => new URL(r.url).pathname),
        onPage.slice(0, 10),
        text,
      );
      found += results.length;
    }
    assert.ok(found > 0, 'the phrasings find something');
  });

  it('get_tool for an MCP server gives the snippets its page shows, on both systems', async () => {
    const slug = 'brave-search-mcp-server';
    const res = await call('get_tool', { slug });
    const install_ = (
      res.structuredContent as {
        mcpServer: { install: Record<'macosLinux' | 'windows', { client: string; code: string }[]> };
      }
    ).mcpServer.install;
    for (const [os, query] of [
      ['macosLinux', ''],
      ['windows', '?os=windows'],
    ] as const) {
      const page = await openWithoutScript(`/tool/${slug}${query}`);
      // Every snippet the page holds (inside closed disclosures too), required settings only.
      const onPage = await install(page)
        .locator('code[data-client]:not([data-optional])')
        .evaluateAll((codes) => codes.map((c) => ({ client: c.getAttribute('data-client')!, code: c.textContent! })));
      await page.context().close();
      assert.deepEqual(
        install_[os].map((s) => ({ client: s.client, code: s.code })),
        onPage,
        os,
      );
    }
  });

  it('an unknown slug is an MCP tool error with the reason', async () => {
    const res = await call('get_tool', { slug: 'no-such-tool' });
    assert.equal(res.isError, true);
    assert.match((res.content[0] as { text: string }).text, /No tool or MCP server .*"no-such-tool"/);
  });

  it('refuses a request from a foreign Origin (403), serves the site`s own', async () => {
    const post = (origin: string) =>
      fetch(MCP, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Origin: origin },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    assert.equal((await post('https://evil.example')).status, 403);
    assert.equal((await post(new URL(BASE).origin)).status, 200);
  });
});

describe('mcp server: the site`s rate limit', () => {
  const LIMIT = 50;
  let site: Site;
  before(async () => {
    // The same build and releases, with a limit small enough to pass quickly.
    site = await startSite({
      releasesDir: process.env.RELEASES_DIR,
      extraEnv: { MCP_RATE_LIMIT: String(LIMIT) },
      quiet: true,
    });
  });
  after(() => site.stop());

  it('refuses calls from one address over the limit with the site`s 429 answer', async () => {
    const statuses: number[] = [];
    let refusal: unknown;
    for (let i = 0; i < LIMIT + 200; i++) {
      const res = await fetch(`${site.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'MCP-Protocol-Version': LATEST_PROTOCOL_VERSION,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: i,
          method: 'tools/call',
          params: { name: 'list_categories', arguments: {} },
        }),
      });
      statuses.push(res.status);
      if (res.status === 429) refusal = await res.json();
      else await res.arrayBuffer();
    }
    assert.deepEqual(statuses.slice(0, LIMIT), Array(LIMIT).fill(200));
    assert.deepEqual(statuses.slice(LIMIT), Array(200).fill(429));
    assert.deepEqual(refusal, { success: false, error: 'Too many requests. Please wait a minute and try again.' });
  });
});
