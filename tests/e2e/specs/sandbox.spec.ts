/**
 * Inspection in the sandbox against the production build (docs/mcp.md, "The inspection sandbox"): local npm
 * packages of MCP servers (packed by the test, served by a local npm registry) are imported, approved and inspected
 * with `pnpm registry inspect` against the running site's database. The benign one's tools show on its page without
 * a restart; the hostile one (secret files, a socket, a fork bomb, 100 MB of output) gets nothing out, and the site
 * answers all along.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, launchBrowser, openPage, waitForRoute } from '../browser';
import { queryDb } from '../db';
import { API_DIR, REPO_ROOT } from '../harness';
import { packPackage, serveNpmRegistry, type LocalRegistry } from '../../../api/src/registry/testdata/npmRegistry';
import type { McpInspection } from '../../../contracts/src/inspection';

const BASE = process.env.BASE_URL!;
const DIR = join(process.env.E2E_DIR!, 'sandbox');
const SECRET = 'operator-secret-e2e-7d2b';
let browser: Browser;
let registry: LocalRegistry;
let listener: Server;
let connections = 0;

/** A pnpm command of the repository, without blocking this process (the site's answers are read meanwhile). */
function pnpm(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ status: number; stdout: string; stderr: string }> {
  const child = spawn('pnpm', ['--silent', ...args], { cwd: REPO_ROOT, env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ status: code ?? 1, stdout, stderr })));
}

/** Imports a server.json for the npm package and approves its submission; returns its tool's slug. */
async function listServer(name: string, pkg: Record<string, unknown>): Promise<string> {
  const file = join(DIR, `${name.replace(/\W/g, '-')}.server.json`);
  writeFileSync(
    file,
    JSON.stringify({
      $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
      name,
      description: 'A local MCP server for the sandbox e2e.',
      version: '1.0.0',
      packages: [{ registryType: 'npm', version: '1.0.0', transport: { type: 'stdio' }, ...pkg }],
    }),
  );
  const imported = await pnpm({}, 'registry', 'import', file);
  assert.equal(imported.status, 0, imported.stderr);
  const [row] = queryDb<{ id: number }>(
    `SELECT s.id FROM submissions s JOIN submission_servers ss ON ss.submission_id = s.id WHERE ss.name = ?`,
    name,
  );
  const approved = await pnpm({}, 'moderate', 'approve', String(row!.id));
  assert.equal(approved.status, 0, approved.stderr);
  return queryDb<{ tool_slug: string }>('SELECT tool_slug FROM mcp_servers WHERE name = ?', name)[0]!.tool_slug;
}

/** Runs `pnpm registry inspect <slug>` against the site's database while asking the site for pages all along;
 *  returns the command's result and every status the site answered with meanwhile. */
async function inspectWhileBrowsing(slug: string) {
  const run = pnpm(
    // Limits lower than the defaults, for a machine the tests share: the hostile server reaches each of them.
    {
      NPM_REGISTRY_URL: registry.url,
      INSPECT_TIMEOUT_SECONDS: '60',
      INSPECT_MEMORY_MB: '1792',
      INSPECT_CPU_SECONDS: '3',
    },
    'registry',
    'inspect',
    slug,
  );
  let done = false;
  void run.then(() => (done = true));
  const statuses: number[] = [];
  while (!done) statuses.push((await fetch(`${BASE}/tool/${slug}`)).status);
  return { result: await run, statuses };
}

const inspectionOf = (slug: string) =>
  JSON.parse(
    queryDb<{ doc: string }>('SELECT doc FROM mcp_inspections WHERE tool_slug = ?', slug)[0]!.doc,
  ) as McpInspection;

async function openWithoutScript(path: string): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${BASE}${path}`);
  return page;
}

before(async () => {
  mkdirSync(DIR, { recursive: true });
  writeFileSync(join(DIR, 'secret.txt'), SECRET, { mode: 0o644 });
  listener = createServer((s) => {
    connections++;
    s.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '0.0.0.0', resolve));
  registry = await serveNpmRegistry([
    packPackage('benign', DIR, { 'marker.json': { path: join(DIR, 'install-script-ran') } }),
    packPackage('hostile', DIR, {
      'targets.json': {
        // The operator's files: a secret, the site's own database and its var folder's secrets.
        files: [join(DIR, 'secret.txt'), process.env.DATABASE_PATH!, join(API_DIR, 'var', 'signals-secret')],
        plant: join(DIR, 'planted'),
        port: (listener.address() as { port: number }).port,
        outside: '1.1.1.1',
      },
    }),
  ]);
  browser = await launchBrowser();
});

after(async () => {
  await browser.close();
  await registry.close();
  await new Promise((resolve) => listener.close(resolve));
});

describe('sandbox: packages inspected by the running site`s CLI', () => {
  it('a local npm package`s tools show on its page after `pnpm registry inspect`, without a restart', async () => {
    const slug = await listServer('io.github.example/sandbox-e2e-weather', {
      identifier: 'sandbox-e2e-weather',
      environmentVariables: [{ name: 'WEATHER_UNITS', value: 'metric' }],
    });
    const before = await openWithoutScript(`/tool/${slug}`);
    assert.equal(await before.getByRole('region', { name: /^Tools \(/ }).count(), 0);
    await before.context().close();

    const { result, statuses } = await inspectWhileBrowsing(slug);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`${slug}: 2 tools, 0 prompts, 0 resources`));
    assert.ok(statuses.length > 0 && statuses.every((s) => s === 200), statuses.join(' '));
    assert.ok(registry.requests.includes('/sandbox-e2e-weather'));

    const page = await openWithoutScript(`/tool/${slug}`);
    const section = page.getByRole('region', { name: 'Tools (2)' });
    await section.getByRole('heading', { level: 3, name: /^get_forecast/ }).waitFor();
    assert.match(await section.innerText(), /Forecast for a city, in metric units\./);
    await page.context().close();
    // With script, the same section, accessible.
    const { page: live, errors } = await openPage(browser);
    await live.goto(`${BASE}/tool/${slug}`);
    await waitForRoute(live);
    await live.getByRole('region', { name: 'Tools (2)' }).waitFor();
    assert.deepEqual(await axeViolations(live), []);
    assert.deepEqual(errors, []);
    await live.context().close();
  });

  it('a hostile package gets nothing out (files, socket, fork bomb) and the site answers all along', async () => {
    const slug = await listServer('io.github.example/sandbox-e2e-hostile', { identifier: 'sandbox-e2e-hostile' });
    const { result, statuses } = await inspectWhileBrowsing(slug);
    assert.equal(result.status, 0, result.stderr);
    assert.ok(statuses.length > 0 && statuses.every((s) => s === 200), statuses.join(' '));
    const inspection = inspectionOf(slug);
    assert.equal(inspection.status, 'inspected', JSON.stringify(inspection));
    const report = inspection.status === 'inspected' ? inspection.tools[0]!.description! : '';
    assert.doesNotMatch(report, new RegExp(SECRET));
    assert.match(report, new RegExp(`read ${process.env.DATABASE_PATH}: ENOENT`));
    assert.match(report, /read .*secret\.txt: ENOENT/);
    assert.match(report, /write .*planted: ENOENT/);
    assert.match(report, /^env: HOME PATH( PWD)?$/m);
    assert.match(report, /connect 127\.0\.0\.1:\d+: ECONNREFUSED/);
    assert.match(report, /connect 1\.1\.1\.1:\d+: ENETUNREACH/);
    assert.equal(connections, 0);
    assert.ok(Number(/processes started: (\d+)/.exec(report)?.[1]) < 64, report);
    assert.match(report, /cpu burner: SIGKILL/);
    assert.ok(Number(/memory held: (\d+) MB/.exec(report)?.[1]) < 1792 - 1024, report);
    assert.match(report, /disk: EFBIG/);
    // The page shows what it listed, and nothing of the operator's.
    const page = await openWithoutScript(`/tool/${slug}`);
    assert.doesNotMatch(await page.content(), new RegExp(SECRET));
    await page.context().close();
  });

  it('a package printing 100 MB is stopped at the output limit, said on its page, and the site answers all along', async () => {
    const slug = await listServer('io.github.example/sandbox-e2e-flood', {
      identifier: 'sandbox-e2e-hostile',
      packageArguments: [{ type: 'positional', value: 'flood' }],
    });
    const { result, statuses } = await inspectWhileBrowsing(slug);
    assert.equal(result.status, 0, result.stderr);
    assert.ok(statuses.length > 0 && statuses.every((s) => s === 200), statuses.join(' '));
    const inspection = inspectionOf(slug);
    assert.equal(inspection.status, 'not-inspected');
    assert.match(inspection.status === 'not-inspected' ? inspection.reason : '', /more than 8388608 bytes/);
    const page = await openWithoutScript(`/tool/${slug}`);
    assert.match(await page.locator('body').innerText(), /Not inspected: .*more than 8388608 bytes to stdout/);
    await page.context().close();
  });
});
