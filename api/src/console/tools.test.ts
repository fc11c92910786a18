/**
 * Editors' tool pages against the site's own answers: a save under the contracts' field rules, 409 on a stale
 * save, hide (410 and out of every list), a slug change (301, chains collapsed), versions, and category/tag merges
 * in one transaction; each bumps the data version and writes the audit trail; a restart's seed keeps all of it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerJson } from '@aitools/contracts/mcp';
import { parsePricingPlans } from '@aitools/contracts/plans';
import { checkToolEdit } from '@aitools/contracts/toolEdit';
import type { Tool } from '@aitools/contracts/tools';
import { seed } from '../seed';
import { dataVersion } from '../content/dataVersion';
import {
  overlapping,
  signedInPerson,
  startConsoleTest,
  type ConsoleBrowser,
  type ConsoleTest,
} from '../../test/consoleHarness';
import { applyRename } from '../tools/taxonomy';
import { getInspection } from '../registry/inspections';
import { listAudit } from '../content/audit';

let t: ConsoleTest;
let editor: ConsoleBrowser;
let moderator: ConsoleBrowser;
const site = () => request(t.app);

beforeAll(async () => {
  t = await startConsoleTest();
  await seed(t.db);
  editor = (await signedInPerson(t, 'Ed Itor', [{ role: 'editor' }])).browser;
  moderator = (await signedInPerson(t, 'Mo Derator', [{ role: 'moderator' }])).browser;
});
afterAll(() => t.close());

/** The tool as the edit form holds it, and the version it was read at. */
async function open(slug: string) {
  const res = await editor.get(`/api/tools/${slug}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { version: number; hidden: boolean; edit: Record<string, unknown> };
}

async function save(slug: string, change: Record<string, unknown>, base?: number) {
  const current = await open(slug);
  return editor.post(`/api/tools/${slug}`, { base: base ?? current.version, edit: { ...current.edit, ...change } });
}

const queryPage = async (params: string) =>
  (await site().get(`/api/tools/query?${params}`)).body as { tools: { slug: string; pricing?: string }[] };

describe('saving a tool', () => {
  it("names the tool's page on the public site, where its /tool/… address answers (not the console's origin)", async () => {
    expect((await editor.get('/api/tools/cursor')).body.page).toBe('https://site.example/tool/cursor');
  });

  it('changes what every public answer shows, bumps the data version and writes the audit trail', async () => {
    const before = await dataVersion(t.db);
    const res = await save('notion-ai', { pricing: 'Paid', tags: ['notes', 'docs'] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await dataVersion(t.db)).toBeGreaterThan(before);
    expect((await site().get('/api/tools/notion-ai')).body.pricing).toBe('Paid');
    const listed = (await site().get('/api/tools')).body.data.find((x: { slug: string }) => x.slug === 'notion-ai');
    expect(listed).toMatchObject({ pricing: 'Paid', tags: ['notes', 'docs'] });
    const { entries } = await listAudit(t.db, { action: 'tool.edit' });
    expect(entries[0]).toMatchObject({ target: '/tool/notion-ai', outcome: 'ok' });
    expect(entries[0]!.summary).toContain('pricing');
    expect(entries[0]!.actor).toContain('Ed Itor');
  });

  it('refuses each field under the contracts rules with its reason, and stores nothing', async () => {
    const before = (await site().get('/api/tools/cursor')).body;
    const res = await save('cursor', {
      name: 'Cur\u202esor',
      website: 'javascript:alert(1)',
      tags: ['ai', 'AI'],
      category: '',
      mcpServer: { name: 'no-slash', description: 'x' },
      unknownField: 1,
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.fieldErrors).sort()).toEqual([
      'category',
      'form',
      'mcpServer',
      'name',
      'tags',
      'website',
    ]);
    expect(res.body.fieldErrors.website).toMatch(/https:\/\//);
    expect(res.body.fieldErrors.name).toMatch(/^Name /);
    expect((await site().get('/api/tools/cursor')).body).toEqual(before);
  });

  it('refuses the second of two saves from one version with 409 and the newer version, sequentially', async () => {
    const { version, edit } = await open('perplexity');
    const first = await editor.post('/api/tools/perplexity', { base: version, edit: { ...edit, pricing: 'Free' } });
    expect(first.status).toBe(200);
    const second = await editor.post('/api/tools/perplexity', { base: version, edit: { ...edit, pricing: 'Paid' } });
    expect(second.status).toBe(409);
    expect(second.body.latest.body.pricing).toBe('Free');
    expect((await site().get('/api/tools/perplexity')).body.pricing).toBe('Free');
  });

  it('two saves of one version, both in the server before either is answered: exactly one is written, the other gets 409', async () => {
    const { version, edit } = await open('midjourney');
    const { answers: results, arrived } = await overlapping(
      t,
      ['Free', 'Paid'].map(
        (pricing) => (app) =>
          editor.post('/api/tools/midjourney', { base: version, edit: { ...edit, pricing } }, {}, app),
      ),
    );
    expect(arrived, 'both saves were in the server before either was answered').toBe(2);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.status === 200)!;
    expect((await site().get('/api/tools/midjourney')).body.pricing).toBe(winner.body.tool.pricing);
  });

  it('keeps each version: list, diff and restore (a restore is a new version)', async () => {
    await save('claude', { description: 'First edit of the description.' });
    await save('claude', { description: 'Second edit of the description.' });
    const versions = (await editor.get('/api/tools/claude/versions')).body.versions as { version: number }[];
    expect(versions.map((v) => v.version)).toEqual([3, 2, 1]);
    const diff = (await editor.get('/api/tools/claude/versions/2/diff')).body.lines as { op: string; text: string }[];
    expect(diff.filter((l) => l.op !== ' ')).toEqual([
      { op: '-', text: 'description: "First edit of the description."' },
      { op: '+', text: 'description: "Second edit of the description."' },
    ]);
    const restored = await editor.post('/api/tools/claude/versions/1/restore', { base: 3 });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(restored.body.version).toBe(4);
    expect((await site().get('/api/tools/claude')).body.description).not.toMatch(/edit of the description/);
    expect((await editor.post('/api/tools/claude/versions/2/restore', { base: 3 })).status).toBe(409);
  });

  it('audits a restore under tool.restore, the version it brought back in the summary, beside the refusals', async () => {
    const { entries } = await listAudit(t.db, { action: 'tool.restore' });
    const done = entries.filter((e) => e.outcome === 'ok' && e.target === '/tool/claude');
    expect(done.map((e) => e.summary)).toEqual(['version 1 restored: changed description']);
    expect(entries.some((e) => e.action !== 'tool.restore')).toBe(false);
  });

  it("refuses a registry name another tool's record has, naming the field, and leaves both records as they were", async () => {
    const other = (await open('github-mcp-server')).edit.mcpServer as ServerJson;
    const slug = 'brave-search-mcp-server';
    const own = (await open(slug)).edit.mcpServer as ServerJson;
    const res = await save(slug, { mcpServer: { ...own, name: other.name } });
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors).toEqual({
      mcpServer: `Another tool ("github-mcp-server") has the registry name "${other.name}"`,
    });
    expect(res.body.error).toMatch(/^Not accepted: .*Another tool \("github-mcp-server"\) has the registry name/);
    expect((await site().get('/api/tools/github-mcp-server')).body.mcpServer.name).toBe(other.name);
    expect((await site().get(`/api/tools/${slug}`)).body.mcpServer.name).toBe(own.name);
  });

  it('the registry record after an edit is still valid against the published server.json schema', async () => {
    const slug = 'github-mcp-server';
    const { edit } = await open(slug);
    const server = edit.mcpServer as ServerJson;
    const res = await save(slug, { mcpServer: { ...server, description: 'Edited description of the server' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const schema = JSON.parse(
      readFileSync(join(import.meta.dirname, '../registry/testdata/server.schema.2025-12-11.json'), 'utf8'),
    );
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const validate = ajv.compile(schema);
    const answer = await site().get(`/v0.1/servers/${encodeURIComponent(server.name)}/versions/latest`);
    expect(answer.body.server.description).toBe('Edited description of the server');
    expect(validate(answer.body.server), ajv.errorsText(validate.errors)).toBe(true);
  });
});

describe("a tool's key features, FAQs and plans", () => {
  /** What the tool page shows of them (mfe-directory's ToolDetail), from the public answer. */
  const shown = (tool: Tool) => ({
    features: (tool.keyFeatures ?? []).map((f) => (typeof f === 'string' ? { title: f } : f)),
    faqs: tool.faqs ?? [],
    plans: parsePricingPlans(tool.detailedPricing).map(({ key: _key, highlight, description, ...p }) => ({
      ...p,
      description: description?.trim(),
      highlight: !!highlight,
    })),
  });

  it('every seeded tool loads into the editor under the field rules', async () => {
    const { tools } = (await editor.get('/api/tools')).body as { tools: { slug: string }[] };
    const refused: Record<string, unknown> = {};
    for (const { slug } of tools) {
      const r = checkToolEdit((await open(slug)).edit);
      if (!r.success) refused[slug] = r.fieldErrors;
    }
    expect(tools.length).toBeGreaterThan(100);
    expect(refused).toEqual({});
  });

  // One tool of each stored plan shape: (a) a list, (b) key -> details, (c) structured plans.
  it.each(['grok', 'meta-ai', 'gemini', 'fetch-mcp-server'])(
    '%s saved unchanged shows the same page, dated as before',
    async (slug) => {
      const before = (await site().get(`/api/tools/${slug}`)).body as Tool;
      const res = await save(slug, {});
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const after = (await site().get(`/api/tools/${slug}`)).body as Tool;
      expect(shown(after)).toEqual(shown(before));
      // "Updated" on the page and in the feed means the tool changed.
      expect(after.lastUpdated).toBe(before.lastUpdated);
      expect(shown(before).plans.length).toBeGreaterThan(0);
      const { entries } = await listAudit(t.db, { action: 'tool.edit' });
      expect(entries[0]).toMatchObject({ target: `/tool/${slug}`, summary: 'saved without changes' });
    },
  );

  it('changes a FAQ answer, a key feature and a plan; the page shows them', async () => {
    const { edit } = await open('chatgpt');
    const faqs = edit.faqs as { question: string; answer: string }[];
    const plans = edit.plans as Record<string, unknown>[];
    const res = await save('chatgpt', {
      faqs: [{ ...faqs[0]!, answer: 'An edited answer.' }, ...faqs.slice(1)],
      keyFeatures: [{ title: 'An edited feature', description: 'With a description' }],
      plans: [{ ...plans[0]!, price: '$1/month', highlight: true }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = (await site().get('/api/tools/chatgpt')).body as Tool;
    expect(after.faqs![0]).toEqual({ question: faqs[0]!.question, answer: 'An edited answer.' });
    expect(after.keyFeatures).toEqual([{ title: 'An edited feature', description: 'With a description' }]);
    expect(parsePricingPlans(after.detailedPricing)).toMatchObject([{ price: '$1/month', highlight: true }]);
    const { entries } = await listAudit(t.db, { action: 'tool.edit' });
    expect(entries[0]!.summary).toBe('changed keyFeatures, faqs, plans');
  });

  it('an edit without the lists (saved before they were editable) keeps them', async () => {
    const before = (await site().get('/api/tools/poe')).body as Tool;
    const { version, edit } = await open('poe');
    const { keyFeatures: _f, faqs: _q, plans: _p, ...older } = edit;
    const res = await editor.post('/api/tools/poe', { base: version, edit: { ...older, pricing: 'Paid' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = (await site().get('/api/tools/poe')).body as Tool;
    expect(after.pricing).toBe('Paid');
    expect(shown(after)).toEqual(shown(before));
  });

  it('refuses a bad entry with a reason naming it, and stores nothing', async () => {
    const before = (await site().get('/api/tools/grok')).body;
    const { edit } = await open('grok');
    const faqs = edit.faqs as { question: string; answer: string }[];
    const res = await save('grok', { faqs: faqs.map((f, i) => (i === 1 ? { ...f, answer: ' ' } : f)) });
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors).toEqual({ 'faqs.1.answer': 'Answer is required' });
    expect((await site().get('/api/tools/grok')).body).toEqual(before);
  });
});

describe('hiding a tool', () => {
  it('answers 410, leaves list, search, sitemap, feeds and /v0.1, and unhiding restores it', async () => {
    const slug = 'fetch-mcp-server';
    const name = (await open(slug)).edit.mcpServer as ServerJson;
    // A change dates the tool today, which puts it among the feed's newest entries.
    expect(
      (await save(slug, { description: 'Fetches a web page and gives it to the model as markdown.' })).status,
    ).toBe(200);
    const inEverything = async () => ({
      page: (await site().get(`/api/tools/${slug}`)).status,
      list: (await site().get('/api/tools')).body.data.some((x: { slug: string }) => x.slug === slug),
      search: (await queryPage('search=fetch')).tools.some((x) => x.slug === slug),
      sitemap: (await site().get('/sitemap.xml')).text.includes(`/tool/${slug}<`),
      feed: (await site().get('/feeds/tools.xml')).text.includes(`/tool/${slug}`),
      registry: (await site().get(`/v0.1/servers/${encodeURIComponent(name.name)}/versions/latest`)).status,
    });
    /** The tool's page, list, search, sitemap, feed and registry record, as a visible tool has them. */
    const shown = { page: 200, list: true, search: true, sitemap: true, feed: true, registry: 200 };
    expect(await inEverything()).toEqual(shown);
    const hidden = await editor.post(`/api/tools/${slug}/hide`);
    expect(hidden.body).toMatchObject({ hidden: true, changed: true });
    expect(await inEverything()).toEqual({
      page: 410,
      list: false,
      search: false,
      sitemap: false,
      feed: false,
      registry: 404,
    });
    expect((await open(slug)).hidden).toBe(true);
    expect((await listAudit(t.db, { action: 'tool.hide' })).entries[0]!.target).toBe(`/tool/${slug}`);
    await editor.post(`/api/tools/${slug}/unhide`);
    expect(await inEverything()).toEqual(shown);
  });
});

describe('changing a slug', () => {
  it('redirects the old address with 301 to the new one, a chain in one step, with the query kept', async () => {
    expect((await save('gamma', { slug: 'gamma-app' })).status).toBe(200);
    expect((await save('gamma-app', { slug: 'gamma-slides' })).status).toBe(200);
    for (const old of ['gamma', 'gamma-app']) {
      const res = await site().get(`/tool/${old}?ref=x`);
      expect(res.status, old).toBe(301);
      expect(res.headers.location).toBe('/tool/gamma-slides?ref=x');
      expect(res.headers['cache-control']).toBe('private, no-store');
    }
    expect((await site().get('/api/tools/gamma-slides')).status).toBe(200);
    expect((await site().get('/api/tools/gamma')).status).toBe(404);
    // Back to a slug it had: that address is the tool's again, not a redirect.
    expect((await save('gamma-slides', { slug: 'gamma' })).status).toBe(200);
    expect((await site().get('/tool/gamma')).status).not.toBe(301);
    expect((await site().get('/tool/gamma-slides')).headers.location).toBe('/tool/gamma');
  });

  it('moves an MCP server record with its tool, and refuses a slug another tool has', async () => {
    expect((await save('git-mcp-server', { slug: 'git-server' })).status).toBe(200);
    expect((await site().get('/api/tools/git-server')).body.mcpServer?.name).toBeTruthy();
    const taken = await save('git-server', { slug: 'cursor' });
    expect(taken.status).toBe(400);
    expect(taken.body.fieldErrors.slug).toMatch(/Another tool/);
    // The message gives the reason, as every refusal of the editor does (reasonsText), not a bare key.
    expect(taken.body.error).toBe('Not accepted: Another tool has the slug "cursor"');
  });

  it("moves an inspected server's checks with it: its snapshots are the same, not a new first one", async () => {
    const before = (await site().get('/api/tools/redis-mcp-server')).body.mcpChecks;
    expect(before.snapshots).toBe(1);
    expect((await save('redis-mcp-server', { slug: 'redis-server' })).status).toBe(200);
    const after = (await site().get('/api/tools/redis-server')).body.mcpChecks;
    expect(after).toMatchObject({ snapshots: 1, contentHash: before.contentHash });
  });
});

describe('a restart (the seed step again)', () => {
  it('keeps every edit: a changed tool, a hidden one and a renamed one with its MCP record', async () => {
    await editor.post('/api/tools/suno/hide');
    const pricing = (await site().get('/api/tools/notion-ai')).body.pricing;
    await seed(t.db);
    expect((await site().get('/api/tools/notion-ai')).body.pricing).toBe(pricing);
    expect((await site().get('/api/tools/suno')).status).toBe(410);
    expect((await site().get('/api/tools/git-mcp-server')).status).toBe(404);
    expect((await site().get('/api/tools/git-server')).body.mcpServer?.name).toBeTruthy();
    expect((await site().get('/api/tools/github-mcp-server')).body.mcpServer.description).toBe(
      'Edited description of the server',
    );
  });
});

describe('categories and tags', () => {
  it('lists each with its count, previews a merge and merges in one transaction', async () => {
    const taxonomy = (await editor.get('/api/taxonomy')).body as { categories: { name: string; tools: number }[] };
    const count = (name: string) => taxonomy.categories.find((c) => c.name === name)?.tools ?? 0;
    expect(count('Development')).toBeGreaterThan(0);
    const rename = { kind: 'category', from: 'MCP', to: 'MCP Servers' };
    const preview = await editor.post('/api/taxonomy/preview', rename);
    expect(preview.body).toMatchObject({ tools: count('MCP'), merge: true });
    const before = await dataVersion(t.db);
    const done = await editor.post('/api/taxonomy/rename', rename);
    expect(done.body.tools).toBe(count('MCP'));
    expect(await dataVersion(t.db)).toBe(before + 1);
    const after = (await editor.get('/api/taxonomy')).body as { categories: { name: string; tools: number }[] };
    expect(after.categories.find((c) => c.name === 'MCP')).toBeUndefined();
    expect(after.categories.find((c) => c.name === 'MCP Servers')!.tools).toBe(count('MCP Servers') + count('MCP'));
    expect((await listAudit(t.db, { action: 'category.merge' })).entries).toHaveLength(1);
    expect((await editor.post('/api/taxonomy/rename', rename)).status).toBe(404);
  });

  it('a merge that fails part way changes no tool', async () => {
    const { tags } = (await editor.get('/api/taxonomy')).body as { tags: { name: string; tools: number }[] };
    const many = tags.find((x) => x.tools >= 2)!;
    const before = await dataVersion(t.db);
    let calls = 0;
    await expect(
      applyRename(
        t.db,
        { kind: 'tag', from: many.name, to: 'renamed-tag' },
        async () => {
          if (++calls === 2) throw new Error('stopped on the second tool');
        },
        async () => {},
      ),
    ).rejects.toThrow('stopped');
    const after = (await editor.get('/api/taxonomy')).body.tags as { name: string; tools: number }[];
    expect(after.find((x) => x.name === many.name)!.tools).toBe(many.tools);
    expect(after.find((x) => x.name === 'renamed-tag')).toBeUndefined();
    expect(await dataVersion(t.db)).toBe(before);
  });

  it('renames a tag under the field rules', async () => {
    const same = await editor.post('/api/taxonomy/rename', { kind: 'tag', from: 'coding', to: 'coding' });
    expect([same.status, same.body.error]).toEqual([
      400,
      'Not accepted: Into (a new name renames; a name in use merges): The new name is the same',
    ]);
    const bad = await editor.post('/api/taxonomy/rename', { kind: 'tag', from: 'coding', to: 'x'.repeat(41) });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors.to).toMatch(/40 characters/);
  });
});

describe('roles', () => {
  it('a moderator is refused every editor call with 403, and the refusal is in the audit trail', async () => {
    for (const [method, path] of [
      ['GET', '/api/tools'],
      ['GET', '/api/tools/cursor'],
      ['POST', '/api/tools/cursor'],
      ['POST', '/api/tools/cursor/hide'],
      ['GET', '/api/taxonomy'],
      ['POST', '/api/taxonomy/rename'],
    ])
      expect((method === 'GET' ? await moderator.get(path!) : await moderator.post(path!, {})).status, path).toBe(403);
    const refused = (await listAudit(t.db, { actor: 'Mo Derator' })).entries.filter((e) => e.outcome === 'refused');
    expect(refused.map((e) => e.action).sort()).toEqual(
      ['taxonomy.read', 'taxonomy.rename', 'tool.edit', 'tool.hide', 'tool.read', 'tool.read'].sort(),
    );
  });
});

describe('a restart (the seed run again)', () => {
  it('keeps an MCP record an editor removed removed', async () => {
    const slug = 'time-mcp-server';
    const name = ((await open(slug)).edit.mcpServer as ServerJson).name;
    expect((await save(slug, { mcpServer: null })).status).toBe(200);
    const latest = () => site().get(`/v0.1/servers/${encodeURIComponent(name)}/versions/latest`);
    expect((await latest()).status).toBe(404);
    await seed(t.db);
    expect((await latest()).status).toBe(404);
    expect((await open(slug)).edit.mcpServer ?? null).toBeNull();
  });

  it("keeps a renamed tool's record and inspection with it, and gives none to a tool that takes its old slug", async () => {
    const old = 'sequential-thinking-mcp-server';
    const name = ((await open(old)).edit.mcpServer as ServerJson).name;
    expect((await save(old, { slug: 'thinking-renamed' })).status).toBe(200);
    expect((await save('poe', { slug: old })).status).toBe(200);
    await seed(t.db);
    expect((await open(old)).edit).toMatchObject({ name: 'Poe' });
    expect((await open(old)).edit.mcpServer ?? null).toBeNull();
    expect(await getInspection(t.db, old)).toBeNull();
    expect(((await open('thinking-renamed')).edit.mcpServer as ServerJson).name).toBe(name);
    expect(await getInspection(t.db, 'thinking-renamed')).not.toBeNull();
  });
});
