import { beforeEach, describe, expect, it } from 'vitest';
import request from 'supertest';
import type { Express } from 'express';
import { readFileSync } from 'node:fs';
import { createApp } from '../app';
import { loadConfig } from '../config';
import type { DB } from '../db/connection';
import { openTestDatabase } from '../../test/testDatabase';
import { createLogger } from '../middleware/logger';
import { seed } from '../seed';
import type { ServerJson } from '@aitools/contracts/mcp';
import {
  INSPECTION_META_KEY,
  inspectionForPage,
  toolParameters,
  type McpInspection,
} from '@aitools/contracts/inspection';
import { INSPECTIONS_FILE, readInspectionsFile } from '../inspectionsFile';
import { keptOrFresh, planFor, type Scratch } from './inspect';
import { SERVERS_FILE } from './versions';

const records = JSON.parse(readFileSync(SERVERS_FILE, 'utf8')) as Record<string, ServerJson>;
const shipped = readInspectionsFile(INSPECTIONS_FILE).servers;
const inspected = Object.entries(shipped).filter(
  (e): e is [string, Extract<McpInspection, { status: 'inspected' }>] => e[1].status === 'inspected',
);
let db: DB;
let app: Express;

beforeEach(async () => {
  db = await openTestDatabase();
  await seed(db);
  app = await createApp({
    config: loadConfig({ ...process.env, NODE_ENV: 'test', SITE_ORIGIN: 'https://dir.example' }),
    db,
    logger: createLogger('silent'),
    pages: false,
  });
});

describe('the shipped inspections', () => {
  it('cover every MCP server record: at least 15 from a real run, the rest with a reason', () => {
    expect(Object.keys(shipped).sort()).toEqual(Object.keys(records).sort());
    expect(inspected.length).toBeGreaterThanOrEqual(15);
    for (const [slug, i] of inspected) {
      expect(i.tools.length, slug).toBeGreaterThan(0);
      expect(i.version, slug).toBe(records[slug]!.version);
      expect(i.inspectedAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      for (const t of i.tools) expect(typeof t.inputSchema, `${slug} ${t.name}`).toBe('object');
    }
    for (const i of Object.values(shipped))
      if (i.status === 'not-inspected') expect(i.reason.length).toBeGreaterThan(5);
  });

  it('are served with the tool`s details and under our _meta key in /v0.1', async () => {
    const [slug, inspection] = inspected[0]!;
    const detail = await request(app).get(`/api/tools/${slug}`);
    expect(detail.body.mcpInspection).toEqual(inspectionForPage(inspection));
    expect(detail.body.mcpInspection.tools.map((t: { name: string }) => t.name)).toEqual(
      inspection.tools.map((t) => t.name),
    );
    const name = records[slug]!.name;
    const one = await request(app).get(`/v0.1/servers/${encodeURIComponent(name)}/versions/latest`);
    expect(one.body._meta[INSPECTION_META_KEY]).toEqual(inspection);
    const list = await request(app).get('/v0.1/servers?limit=100');
    const withMeta = list.body.servers.filter(
      (s: { _meta: Record<string, { status?: string }> }) => s._meta[INSPECTION_META_KEY]?.status === 'inspected',
    );
    expect(withMeta).toHaveLength(inspected.length);
    // Not part of the server.json itself: the record stays as published.
    expect(one.body.server._meta).toBeUndefined();
  });

  it('make a server findable in the directory by the name of a tool it offers', async () => {
    let found = 0;
    for (const [slug, inspection] of inspected.slice(0, 5)) {
      // A tool name that is neither in the server's name nor in its description.
      const summary = (await request(app).get(`/api/tools/${slug}`)).body as { name: string; description: string };
      const own = `${summary.name} ${summary.description}`.toLowerCase();
      const tool = inspection.tools.find((t) => !own.includes(t.name.toLowerCase()));
      if (!tool) continue;
      const res = await request(app).get('/api/tools/query').query({ search: tool.name.toUpperCase() });
      expect(
        res.body.tools.map((t: { slug: string }) => t.slug),
        `${slug} by ${tool.name}`,
      ).toContain(slug);
      found++;
    }
    expect(found).toBeGreaterThanOrEqual(3);
    const api = await request(app).get('/api/tools').query({ search: 'browser_navigate' });
    expect(api.body.data.map((t: { slug: string }) => t.slug)).toContain('playwright-mcp-server');
    const none = await request(app).get('/api/tools/query').query({ search: 'zz_no_such_tool_zz' });
    expect(none.body.tools).toEqual([]);
  });

  it('the page`s copy keeps every tool`s parameters, without the rest of the schemas', () => {
    let before = 0;
    let after = 0;
    for (const [, inspection] of inspected) {
      const slim = inspectionForPage(inspection);
      if (slim.status !== 'inspected') throw new Error('kept its status');
      slim.tools.forEach((t, i) => expect(toolParameters(t)).toEqual(toolParameters(inspection.tools[i]!)));
      before += JSON.stringify(inspection).length;
      after += JSON.stringify(slim).length;
    }
    expect(after).toBeLessThan(before * 0.6);
  });

  it('the seed follows the file: a changed inspection replaces the stored one', async () => {
    const [slug] = inspected[0]!;
    await db
      .updateTable('mcp_inspections')
      .set({ doc: JSON.stringify({ status: 'not-inspected', reason: 'stale', checkedAt: '2020-01-01' }) })
      .where('tool_slug', '=', slug)
      .execute();
    await seed(db);
    expect((await request(app).get(`/api/tools/${slug}`)).body.mcpInspection.status).toBe('inspected');
  });
});

describe('what pnpm registry inspect runs for a record', () => {
  const scratch: Scratch = { home: '/tmp/x/home', npmCache: '/tmp/x/cache', files: '/tmp/x/files' };
  it('npx -y <package>@<version>, a throwaway folder for a required path, the minimal environment', () => {
    const plan = planFor(records['filesystem-mcp-server']!, scratch);
    if ('skip' in plan) throw new Error(plan.skip);
    expect(plan.spec.command).toBe('npx');
    expect(plan.spec.args).toEqual([
      '-y',
      `@modelcontextprotocol/server-filesystem@${records['filesystem-mcp-server']!.version}`,
      '/tmp/x/files',
    ]);
    expect(Object.keys(plan.spec.env).sort()).toEqual([
      'HOME',
      'NO_COLOR',
      'PATH',
      'PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD',
      'PUPPETEER_SKIP_DOWNLOAD',
      'npm_config_audit',
      'npm_config_cache',
      'npm_config_fund',
      'npm_config_update_notifier',
      'npm_config_yes',
    ]);
    expect(plan.spec.env.HOME).toBe('/tmp/x/home');
  });

  it('runs the release the npm package names, the one the record`s version follows', () => {
    let planned = 0;
    for (const [slug, doc] of Object.entries(records)) {
      const plan = planFor(doc, scratch);
      if ('skip' in plan || !plan.package) continue;
      const pkg = doc.packages!.find((p) => p.identifier === plan.package)!;
      expect(pkg.version, slug).toBe(doc.version);
      expect(plan.version, slug).toBe(pkg.version);
      if ('spec' in plan) expect(plan.spec.args, slug).toContain(`${pkg.identifier}@${pkg.version}`);
      planned++;
    }
    expect(planned).toBeGreaterThanOrEqual(20);
    // Where the two differ, the package's own version is the one run.
    const doc = structuredClone(records['filesystem-mcp-server']!);
    doc.packages![0]!.version = '2025.1.1';
    const plan = planFor(doc, scratch);
    if ('skip' in plan) throw new Error(plan.skip);
    expect(plan.spec.args[1]).toBe('@modelcontextprotocol/server-filesystem@2025.1.1');
  });

  it('says why it runs nothing: no npm package, a value only the visitor has, a key', () => {
    expect(planFor(records['fetch-mcp-server']!, scratch)).toMatchObject({
      skip: expect.stringMatching(/no npm package/),
    });
    expect(planFor(records['linear-mcp-server']!, scratch)).toMatchObject({
      skip: expect.stringMatching(/remote server only/),
    });
    expect(planFor(records['postgres-mcp-server']!, scratch)).toMatchObject({ skip: 'needs a value for database_url' });
    // A key the server reads from its environment: it is run without it, and a failure then says which key it needs.
    expect(planFor(records['stripe-mcp-server']!, scratch)).toMatchObject({
      package: '@stripe/mcp',
      secrets: ['STRIPE_SECRET_KEY'],
    });
  });
});

describe('a refresh that cannot run a server', () => {
  it('keeps the earlier inspection of the same package version, and takes a new version`s result', () => {
    const [, before] = inspected[0]!;
    const failed: McpInspection = {
      status: 'not-inspected',
      reason: 'it exited (code 1) before answering',
      checkedAt: '2026-12-01',
      package: before.package,
      version: before.version,
    };
    expect(keptOrFresh(before, failed)).toBe(before);
    const newer = { ...failed, version: '999.0.0' };
    expect(keptOrFresh(before, newer)).toBe(newer);
    expect(keptOrFresh(undefined, failed)).toBe(failed);
  });
});
