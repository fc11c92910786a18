/**
 * Remote MCP servers against the production build (docs/mcp.md, "Remote servers" and "Health"): a site whose jobs
 * run every second inspects a remote run by the test over Streamable HTTP (the SDK's server) and shows its tools on
 * its page; a remote at a private or loopback address not on the allow-list (OUTBOUND_ALLOW), and one that redirects
 * there, are refused with the reason; a remote that stops answering shows as unreachable after the next check, and
 * healthy again once it is back.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { axeViolations, launchBrowser, noJsPage, openPage, waitForRoute } from '../browser';
import { API_DIR, runApiScript, startSite, type Site } from '../harness';
import { startRemoteMcp, type RemoteMcp } from '../../../api/test/remoteMcpServer';
import { CHECKS_META_KEY, type ChecksFacts } from '../../../contracts/src/checks';
import type { McpInspection } from '../../../contracts/src/inspection';

const SERVED = 'linear-mcp-server';
const PRIVATE = 'figma-mcp-server';
const LOOPBACK = 'atlassian-mcp-server';
const REDIRECTED = 'cloudflare-mcp-server';
const TOOLS = [
  { name: 'create_issue', description: 'Creates an issue in the given team.' },
  { name: 'list_issues', description: 'Lists the issues assigned to you.' },
];
let site: Site;
let browser: Browser;
let remote: RemoteMcp;
let redirector: RemoteMcp;

/** Points the seeded servers' remotes at the given addresses, through the api's own write path (an import). */
async function pointRemotes(urls: Record<string, string>): Promise<void> {
  const dir = join(site.dir, 'remotes');
  mkdirSync(dir, { recursive: true });
  const script = join(dir, 'point.mts');
  writeFileSync(
    script,
    `import { loadConfig } from ${JSON.stringify(join(API_DIR, 'src', 'config'))};
import { openDatabase } from ${JSON.stringify(join(API_DIR, 'src', 'db', 'connection'))};
import { getServerByToolSlug, upsertServer } from ${JSON.stringify(join(API_DIR, 'src', 'registry', 'repository'))};
const db = await openDatabase(loadConfig().database);
const urls = JSON.parse(process.argv[2]!);
const rows = await db.selectFrom('mcp_servers').select('tool_slug').execute();
for (const { tool_slug } of rows) {
  const doc = (await getServerByToolSlug(db, tool_slug))!;
  if (!doc.remotes?.length) continue;
  // Every other remote at an address the guard refuses at once: the run never reaches the network outside.
  doc.remotes = [{ type: 'streamable-http', url: urls[tool_slug] ?? 'http://0.0.0.0:9/mcp' }];
  await upsertServer(db, { doc, toolSlug: tool_slug, source: 'import' });
}
await db.destroy();
`,
  );
  const r = await runApiScript(site.env, script, [JSON.stringify(urls)]);
  assert.equal(r.status, 0, r.stderr);
}

interface Detail {
  mcpInspection?: McpInspection;
  mcpChecks?: ChecksFacts;
}

/** The tool's details once `ready` holds: the site's jobs run every second, so this waits for a run's result. */
async function detailWhen(slug: string, ready: (d: Detail) => boolean): Promise<Detail> {
  for (let tries = 0; ; tries++) {
    const body = (await (await fetch(`${site.baseUrl}/api/tools/${slug}`)).json()) as Detail;
    if (ready(body)) return body;
    // A guard against a hang, not a timing: each poll waits for the next answer, and a run comes every second.
    if (tries > 1200) throw new Error(`${slug} never reached the state: ${JSON.stringify(body).slice(0, 600)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const notInspectedReason = (d: Detail) =>
  d.mcpInspection?.status === 'not-inspected' ? d.mcpInspection.reason : undefined;

before(async () => {
  remote = await startRemoteMcp({ tools: TOOLS });
  redirector = await startRemoteMcp();
  browser = await launchBrowser();
  site = await startSite({
    releasesDir: process.env.RELEASES_DIR,
    extraEnv: {
      OUTBOUND_ALLOW: '127.0.0.1',
      OUTBOUND_TIMEOUT_MS: '3000',
      JOB_HEALTH_EVERY: '1000',
      JOB_INSPECT_REMOTES_EVERY: '1000',
    },
  });
  // The redirector is on the allow-list; the address it sends the client to is not.
  redirector.mode = { redirectTo: `http://127.0.0.2:${remote.port}/mcp` };
  await pointRemotes({
    [SERVED]: remote.url,
    [PRIVATE]: 'http://10.0.0.1/mcp',
    [LOOPBACK]: `http://127.0.0.2:${remote.port}/mcp`,
    [REDIRECTED]: redirector.url,
  });
});

after(async () => {
  await site?.stop();
  await browser?.close();
  await remote?.close();
  await redirector?.close();
});

describe('remote servers', () => {
  it('inspects a Streamable HTTP remote and shows its tools on its page, without script', async () => {
    await detailWhen(SERVED, (d) => d.mcpInspection?.status === 'inspected');
    const page = await noJsPage(browser);
    await page.goto(`${site.baseUrl}/tool/${SERVED}`);
    const text = await page.locator('#dir-offer-title').locator('..').innerText();
    assert.match(text, /Tools \(2\)/);
    assert.match(text, /create_issue/);
    assert.match(text, /list_issues/);
    assert.match(text, new RegExp(`when we asked ${remote.url.replace(/[.]/g, '\\.')} over Streamable HTTP`));
    await page.context().close();
  });

  it('refuses a private address, a loopback one not on the allow-list, and a redirect there, with the reason', async () => {
    const reasonOf = async (slug: string) => notInspectedReason(await detailWhen(slug, (d) => !!notInspectedReason(d)));
    assert.equal(await reasonOf(PRIVATE), 'refused: 10.0.0.1 is a private address (not on the allow-list)');
    assert.equal(await reasonOf(LOOPBACK), 'refused: 127.0.0.2 is a loopback address (not on the allow-list)');
    assert.match(
      (await reasonOf(REDIRECTED))!,
      /the redirect to http:\/\/127\.0\.0\.2:\d+\/mcp was refused: 127\.0\.0\.2 is a loopback address \(not on the allow-list\)/,
    );
    const page = await noJsPage(browser);
    await page.goto(`${site.baseUrl}/tool/${PRIVATE}`);
    assert.match(
      await page.locator('body').innerText(),
      /Not inspected: refused: 10\.0\.0\.1 is a private address \(not on the allow-list\)/,
    );
    await page.context().close();
  });

  it('shows an unreachable remote after the next check, and healthy again once it is back', async () => {
    await detailWhen(SERVED, (d) => d.mcpChecks?.health?.last.status === 'healthy');
    const port = remote.port;
    await remote.close();
    const stoppedAt = new Date().toISOString();
    const down = await detailWhen(
      SERVED,
      (d) => d.mcpChecks?.health?.last.status === 'unreachable' && d.mcpChecks.health.last.at > stoppedAt,
    );
    // Refused once it is down; a check that had connected as it closed is reset: either names the reason.
    assert.match(down.mcpChecks!.health!.last.detail!, /ECONNREFUSED|ECONNRESET/);
    const page = await noJsPage(browser);
    await page.goto(`${site.baseUrl}/tool/${SERVED}`);
    assert.match(await page.getByRole('region', { name: 'Checks' }).innerText(), /Last check .* UTC: Unreachable/);
    await page.context().close();
    remote = await startRemoteMcp({ tools: TOOLS, port });
    const backAt = new Date().toISOString();
    await detailWhen(
      SERVED,
      (d) => d.mcpChecks?.health?.last.status === 'healthy' && d.mcpChecks.health.last.at > backAt,
    );
    const again = await noJsPage(browser);
    await again.goto(`${site.baseUrl}/tool/${SERVED}`);
    const checks = await again.getByRole('region', { name: 'Checks' }).innerText();
    assert.match(checks, /Last check .* UTC: Healthy in \d+ ms/);
    assert.match(checks, /Last 30 days: [\d.]+% uptime over \d+ checks, median time \d+ ms/);
    await again.context().close();
  });

  it('lists only healthy servers under the filters, in /v0.1 and on the home page', async () => {
    const v01 = (await (await fetch(`${site.baseUrl}/v0.1/servers?limit=100&health=healthy`)).json()) as {
      servers: { _meta: Record<string, ChecksFacts & { slug?: string }> }[];
    };
    assert.deepEqual(
      v01.servers.map((s) => s._meta['io.aitoolsdirectory/listing']!.slug),
      [SERVED],
    );
    assert.equal(v01.servers[0]!._meta[CHECKS_META_KEY]!.health!.last.status, 'healthy');
    const page = await noJsPage(browser);
    await page.goto(`${site.baseUrl}/?type=healthy`);
    const cards = page.locator('main').getByRole('link', { name: /Linear/ });
    assert.ok((await cards.count()) > 0);
    assert.match(await page.locator('.dir-count').innerText(), /^1 tool found$/);
    await page.context().close();
  });

  it("the page's Checks section with its health passes axe in both themes", async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page, errors } = await openPage(browser, { colorScheme });
      await page.goto(`${site.baseUrl}/tool/${SERVED}`);
      await waitForRoute(page);
      await page.getByRole('heading', { name: 'Health' }).waitFor();
      assert.deepEqual(await axeViolations(page), [], `tool page, ${colorScheme}`);
      assert.deepEqual(errors, []);
      await page.context().close();
    }
  });
});
