import { beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../app';
import { loadConfig } from '../config';
import { jsonText, type DB } from '../db/connection';
import { countRows, openTestDatabase } from '../../test/testDatabase';
import { createLogger } from '../middleware/logger';
import { seedTools } from './seed';
import { parseTags } from '@aitools/contracts/tools';
import { getTool, listToolSummaries, upsertTool } from './repository';

let app: Express;
let db: DB;

beforeAll(async () => {
  db = await openTestDatabase();
  await seedTools(db);
  app = await createApp({
    config: loadConfig({ ...process.env, NODE_ENV: 'test' }),
    db,
    logger: createLogger('silent'),
    pages: false,
  });
});

describe('seed data', () => {
  it('has 150+ real tools, 30+ MCP servers and at least 5 tools in each of the 14 categories', async () => {
    const res = await request(app).get('/api/tools');
    const tools = res.body.data as { category: string; mcpBadge?: string; popularityScore?: number }[];
    expect(tools.length).toBeGreaterThanOrEqual(150);
    const byCategory = new Map<string, number>();
    for (const t of tools) {
      const c = t.category === 'AI Tools' ? 'AI Assistants' : t.category === 'MCP' ? 'MCP Servers' : t.category;
      byCategory.set(c, (byCategory.get(c) ?? 0) + 1);
    }
    expect(byCategory.size).toBe(14);
    for (const [category, n] of byCategory) expect(n, category).toBeGreaterThanOrEqual(5);
    expect(tools.filter((t) => t.mcpBadge).length).toBeGreaterThanOrEqual(30);
    expect(new Set(tools.map((t) => t.mcpBadge).filter(Boolean))).toEqual(new Set(['Official', 'Community']));
    expect(tools.some((t) => t.popularityScore === undefined)).toBe(true);
    // inputs the client must survive stay in the data
    expect(tools.some((t) => t.category === 'AI Tools')).toBe(true);
    expect(tools.some((t) => t.category === 'MCP')).toBe(true);
  });

  it('keeps brace-string tags in the database and is safe to run twice', async () => {
    const row = await db
      .selectFrom('tools')
      .select(jsonText(db, 'doc', 'tags').as('tags'))
      .where('slug', '=', 'pi')
      .executeTakeFirstOrThrow();
    expect(row.tags).toMatch(/^\{.*\}$/);
    const before = await countRows(db, 'tools');
    await seedTools(db);
    expect(await countRows(db, 'tools')).toBe(before);
  });
});

describe('GET /api/tools', () => {
  it('answers list summaries only, with tags normalised to arrays', async () => {
    const res = await request(app).get('/api/tools');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const pi = res.body.data.find((t: { slug: string }) => t.slug === 'pi');
    expect(pi.tags).toEqual(['chatbot', 'companion', 'voice', 'conversation', 'free']);
    const allowed = [
      'id',
      'name',
      'slug',
      'description',
      'category',
      'tags',
      'pricing',
      'website',
      'logo',
      'popularityScore',
      'mcpBadge',
      'lastUpdated',
    ];
    for (const t of res.body.data) {
      for (const key of Object.keys(t)) expect(allowed).toContain(key);
      expect(Array.isArray(t.tags)).toBe(true);
      expect(typeof t.id).toBe('number');
    }
    expect(JSON.stringify(res.body)).not.toContain('fullDescription');
  });

  it('carries an ETag and answers 304 to a matching If-None-Match', async () => {
    const first = await request(app).get('/api/tools');
    const etag = first.headers.etag;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    const again = await request(app).get('/api/tools').set('If-None-Match', etag);
    expect(again.status).toBe(304);
    expect(again.text ?? '').toBe('');
    const stale = await request(app).get('/api/tools').set('If-None-Match', '"other"');
    expect(stale.status).toBe(200);
  });
});

describe('GET /api/tools/query', () => {
  it('answers one page of the directory query, with the totals to page through it', async () => {
    const all = (await request(app).get('/api/tools')).body.data as unknown[];
    const res = await request(app).get('/api/tools/query?size=12&page=2');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      total: all.length,
      page: 2,
      pages: Math.ceil(all.length / 12),
      catalogue: all.length,
    });
    expect(res.body.tools).toHaveLength(12);
    expect(res.body.featured).toHaveLength(50);
    expect(res.body.suggestions).toBeUndefined();
  });

  it('filters by search (through the full-text index), category and type, and sorts', async () => {
    const res = await request(app).get('/api/tools/query?search=github&type=mcp-servers&sort=alphabetical&size=96');
    const names = (res.body.tools as { name: string }[]).map((t) => t.name);
    expect(names.length).toBeGreaterThan(0);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    expect(names.every((n) => /github/i.test(n)) || names.length === res.body.total).toBe(true);
    const dev = await request(app).get('/api/tools/query?category=Development&size=96');
    expect((dev.body.tools as { category: string }[]).every((t) => t.category === 'Development')).toBe(true);
  });

  it('clamps the page, reads unknown values as defaults, and offers suggestions when a search finds nothing', async () => {
    const res = await request(app).get('/api/tools/query?page=999&size=7&sort=bogus&category=Nope');
    expect(res.body.page).toBe(res.body.pages);
    expect(res.body.tools.length).toBeGreaterThan(0);
    const miss = await request(app).get('/api/tools/query?search=githb');
    expect(miss.body.total).toBe(0);
    expect(miss.body.suggestions).toContain('GitHub');
  });

  it('clamps a page past any catalogue to the last, while searching too (never an offset the database refuses)', async () => {
    for (const query of [
      'page=1000000000000000000',
      'search=ai&page=1000000000000000000',
      'search=ai&size=7&page=99999999999999999999999',
    ]) {
      const res = await request(app).get(`/api/tools/query?${query}`);
      expect(res.status, query).toBe(200);
      expect(res.body.page, query).toBe(res.body.pages);
      expect(res.body.tools.length, query).toBeGreaterThan(0);
    }
  });

  it('stays bounded: the answer carries one page, however many tools match', async () => {
    const res = await request(app).get('/api/tools/query?size=96');
    expect(res.body.tools.length).toBeLessThanOrEqual(96);
    expect(JSON.stringify(res.body).length).toBeLessThan(
      JSON.stringify((await request(app).get('/api/tools')).body).length,
    );
  });
});

describe('GET /api/tools/:slug', () => {
  it('answers the whole tool', async () => {
    const res = await request(app).get('/api/tools/cursor');
    expect(res.status).toBe(200);
    expect(res.body.slug).toBe('cursor');
    expect(typeof res.body.id).toBe('number');
    expect(res.body.fullDescription.length).toBeGreaterThan(100);
    expect(res.body.detailedPricing).toBeTruthy();
    expect(res.body.faqs.length).toBeGreaterThan(0);
  });

  it('answers 404 JSON for an unknown slug', async () => {
    const res = await request(app).get('/api/tools/no-such-tool');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: 'Tool not found' });
  });
});

describe('parseTags', () => {
  it('reads arrays and brace-list strings', () => {
    expect(parseTags(['a', ' b ', ''])).toEqual(['a', 'b']);
    expect(parseTags('{a, b ,c}')).toEqual(['a', 'b', 'c']);
    expect(parseTags('{"x y",z}')).toEqual(['x y', 'z']);
    expect(parseTags('{}')).toEqual([]);
    expect(parseTags(undefined)).toEqual([]);
    expect(parseTags(42)).toEqual([]);
  });
});

describe('the tool list held per data version', () => {
  it('is read once per version, shared read-only, and read again after a write changes the data', async () => {
    const first = await listToolSummaries(db);
    expect(await listToolSummaries(db)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    const tool = (await getTool(db, 'cursor'))!;
    await upsertTool(db, { ...tool, name: 'Cursor Renamed' });
    const after = await listToolSummaries(db);
    expect(after).not.toBe(first);
    expect(after.find((t) => t.slug === 'cursor')?.name).toBe('Cursor Renamed');
    await upsertTool(db, tool);
  });
});
