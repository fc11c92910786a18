/**
 * One instance follows another's /v0.1 (docs/mcp.md, "Following upstream registries"), both production builds: the
 * follower names the upstream in REGISTRY_UPSTREAMS and runs its `sync` job every few seconds (JOB_SYNC_EVERY). A
 * server imported and approved upstream becomes a pending submission on the follower in the first sync after it; a
 * new version upstream updates the follower's record and its page; a server hidden upstream (listed to followers as
 * deleted) leaves the follower's lists. An admin reads each sync and asks for one in the console's Upstreams screen.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, launchBrowser } from '../browser';
import { queryDbAt } from '../db';
import { runApiScript, startSite, type Site } from '../harness';
import { eventually, registerOperator } from '../operators';

const NAME = 'io.example/followed-weather';
const SLUG = 'followed-weather';
const PERIOD_MS = 3000;

interface SyncRow {
  started_at: string;
  outcome: string;
  reason: string | null;
  counts: string;
}

describe('an instance follows another instance as its upstream', () => {
  const dir = mkdtempSync(join(tmpdir(), 'aitools-sync-'));
  let upstream: Site;
  let follower: Site;
  let browser: Browser;

  const serverJson = (version: string) => {
    const file = join(dir, `server-${version}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
        name: NAME,
        title: 'Followed Weather',
        description: 'Forecasts for the places a visitor names.',
        version,
        websiteUrl: 'https://weather.example',
        packages: [
          {
            registryType: 'npm',
            identifier: '@example/followed-weather',
            version,
            transport: { type: 'stdio' },
          },
        ],
      }),
    );
    return file;
  };
  const registry = async (site: Site, ...args: string[]) => {
    const r = await runApiScript(site.env, 'src/moderation/registryCli.ts', args);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    return r.stdout;
  };
  const approve = async (site: Site, id: string) => {
    const r = await runApiScript(site.env, 'src/moderation/cli.ts', ['approve', id]);
    assert.equal(r.status, 0, r.stdout + r.stderr);
  };
  const followerDb = <T>(sql: string, ...params: unknown[]) =>
    queryDbAt<T>(follower.env.DATABASE_PATH!, sql, ...params);
  /** The first sync the follower started after `since`, once it has finished. */
  const firstSyncAfter = async (since: string): Promise<SyncRow> => {
    let row: SyncRow | undefined;
    await eventually(
      `a sync after ${since}`,
      async () => {
        row = followerDb<SyncRow>(
          'SELECT started_at, outcome, reason, counts FROM registry_syncs WHERE started_at > ? ORDER BY id LIMIT 1',
          since,
        )[0];
        return Boolean(row);
      },
      PERIOD_MS * 10,
    );
    assert.equal(row!.outcome, 'ok', row!.reason ?? '');
    return row!;
  };
  /**
   * What the follower's syncs counted (`key`) of a change made upstream after `before`: a run started once the change
   * was made (`since`) has read it by the time it ends, but a run still reading when it was made (a paced run takes
   * a while) may have read it first, so every run finished after `before` is summed.
   */
  const countedAfter = async (before: string, since: string, key: string): Promise<number> => {
    await firstSyncAfter(since);
    const rows = followerDb<SyncRow>(
      'SELECT started_at, outcome, reason, counts FROM registry_syncs WHERE finished_at > ?',
      before,
    );
    return rows.reduce((n, r) => n + ((JSON.parse(r.counts) as Record<string, number>)[key] ?? 0), 0);
  };
  const invite = async (site: Site, role: string, name: string): Promise<Page> => {
    const cli = await runApiScript(site.env, 'src/console/cli.ts', ['invite', '--role', role, '--name', name]);
    assert.equal(cli.status, 0, cli.stderr);
    const link = /https?:\/\/\S+\/invite\/\S+/.exec(cli.stdout)?.[0];
    assert.ok(link, cli.stdout);
    return (await registerOperator(browser, site.consoleUrl!, name, link)).page;
  };

  before(async () => {
    browser = await launchBrowser();
    upstream = await startSite({ console: true });
    follower = await startSite({
      console: true,
      // The upstream is on this machine: the SSRF guard reaches it only where the allow-list names it.
      extraEnv: {
        REGISTRY_UPSTREAMS: upstream.baseUrl,
        JOB_SYNC_EVERY: String(PERIOD_MS),
        OUTBOUND_ALLOW: new URL(upstream.baseUrl).hostname,
      },
    });
  });
  after(async () => {
    await browser?.close();
    await follower?.stop();
    await upstream?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('follows from the start: the first sync reads the upstream and changes nothing the two share', async () => {
    const first = await firstSyncAfter('');
    const counts = JSON.parse(first.counts) as Record<string, number>;
    assert.ok(counts.records > 40, first.counts);
    assert.equal(counts.added, 0, first.counts);
    assert.equal(counts.deleted, 0, first.counts);
  });

  it('a server imported and approved upstream is a pending submission here after the next sync', async () => {
    const imported = await registry(upstream, 'import', serverJson('1.0.0'));
    const id = /pending submission (\d+)/.exec(imported)?.[1];
    assert.ok(id, imported);
    const before = new Date().toISOString();
    await approve(upstream, id);
    assert.equal(await countedAfter(before, new Date().toISOString(), 'added'), 1);
    const [pending] = followerDb<{ id: number; status: string; message: string }>(
      'SELECT s.id, s.status, s.message FROM submissions s JOIN submission_servers ss ON ss.submission_id = s.id WHERE ss.name = ?',
      NAME,
    );
    assert.equal(pending?.status, 'pending');
    assert.equal(pending.message, `Followed from ${upstream.baseUrl}: ${NAME} 1.0.0`);
    // Pending, so not listed here yet.
    assert.equal((await fetch(`${follower.baseUrl}/tool/${SLUG}`)).status, 404);
    await approve(follower, String(pending.id));
    assert.match(await (await fetch(`${follower.baseUrl}/tool/${SLUG}`)).text(), /version 1\.0\.0/);
  });

  it("a new version upstream updates the follower's record and its page", async () => {
    const before = new Date().toISOString();
    const imported = await registry(upstream, 'import', serverJson('2.0.0'));
    assert.match(imported, /Added 0, updated 1, refused 0\./);
    assert.equal(await countedAfter(before, new Date().toISOString(), 'updated'), 1);
    const record = (await (
      await fetch(`${follower.baseUrl}/v0.1/servers/${encodeURIComponent(NAME)}/versions/latest`)
    ).json()) as { server: { version: string } };
    assert.equal(record.server.version, '2.0.0');
    const page = await (await fetch(`${follower.baseUrl}/tool/${SLUG}`)).text();
    assert.match(page, /version 2\.0\.0/);
  });

  it("a server deleted upstream (its tool hidden there) leaves the follower's lists", async () => {
    const editor = await invite(upstream, 'editor', 'Upstream editor');
    const before = new Date().toISOString();
    const hidden = await editor.evaluate(async (slug) => {
      const res = await fetch(`/api/tools/${slug}/hide`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      return res.status;
    }, SLUG);
    assert.equal(hidden, 200);
    await editor.context().close();
    assert.equal(await countedAfter(before, new Date().toISOString(), 'deleted'), 1);
    assert.equal((await fetch(`${follower.baseUrl}/tool/${SLUG}`)).status, 410);
    const list = (await (await fetch(`${follower.baseUrl}/v0.1/servers?search=Followed`)).json()) as {
      servers: { server: { name: string } }[];
    };
    assert.deepEqual(
      list.servers.filter((s) => s.server.name === NAME),
      [],
    );
    assert.equal((await fetch(`${follower.baseUrl}/api/tools/${SLUG}`)).status, 410);
  });

  it("an admin reads the upstream's last sync and asks for one in the console's Upstreams screen", async () => {
    const admin = await invite(follower, 'admin', 'Follower admin');
    await admin.goto(`${follower.consoleUrl}/upstreams`);
    const table = admin.getByRole('table', { name: 'Followed upstreams' });
    const row = table.getByRole('row', { name: new RegExp(upstream.baseUrl.replace(/[.:/]/g, '\\$&')) });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /records in \d+ pages/);
    assert.deepEqual(await axeViolations(admin), []);
    await row.getByRole('button', { name: /^Sync now/ }).click();
    await admin
      .getByRole('status')
      .filter({ hasText: `${upstream.baseUrl}: ` })
      .waitFor();
    const asked = followerDb<{ actor: string }>("SELECT actor FROM console_audit WHERE action = 'upstream.sync'");
    assert.deepEqual(
      asked.map((r) => r.actor.replace(/^person:\d+ /, '')),
      ['Follower admin'],
    );
    await admin.context().close();
  });
});
