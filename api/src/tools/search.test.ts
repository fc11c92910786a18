import { beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../app';
import { loadConfig } from '../config';
import { sql } from 'kysely';
import type { DB } from '../db/connection';
import { publicWrite } from '../content/dataVersion';
import { openTestDatabase } from '../../test/testDatabase';
import { createLogger } from '../middleware/logger';
import { seed } from '../seed';
import type { ToolSummary } from '@aitools/contracts/tools';
import { listToolSummaries, upsertTool } from './repository';
import { similarTools } from './similar';

let app: Express;
let db: DB;

beforeAll(async () => {
  db = await openTestDatabase();
  await seed(db);
  app = await createApp({
    config: loadConfig({ ...process.env, NODE_ENV: 'test' }),
    db,
    logger: createLogger('silent'),
    pages: false,
  });
});

/** The directory's search (docs/product.md, Directory search), written plainly (with an MCP server's tool names): the index must answer exactly this. */
const contains = (tools: ToolSummary[], q: string) =>
  tools
    .filter((t) =>
      [t.name, t.description, ...(t.mcpTools ?? [])].some((text) => text.toLowerCase().includes(q.toLowerCase())),
    )
    .map((t) => t.slug);

describe('GET /api/tools?search=', () => {
  it('finds every tool whose name, description or MCP tool names contain the whole text (any case), first', async () => {
    const all = await listToolSummaries(db);
    for (const q of [
      'github',
      'GitHub',
      'postgres',
      'code',
      'ai',
      'x',
      'image generation',
      'MCP server',
      '"quoted"',
      'a*b OR c',
      'read_file',
      'BROWSER_NAVIGATE',
    ]) {
      const res = await request(app).get('/api/tools').query({ search: q });
      expect(res.status).toBe(200);
      const whole = contains(all, q);
      const found = res.body.data.map((t: ToolSummary) => t.slug);
      expect(found.slice(0, whole.length).sort(), q).toEqual([...whole].sort());
    }
  });

  it('follows changes to the tools (the held list and the cached answers go with the data version)', async () => {
    const found = async (q: string) =>
      (await request(app).get('/api/tools').query({ search: q })).body.data.map((t: ToolSummary) => t.slug);
    expect(await found('qwertyuio')).toEqual([]);
    await upsertTool(db, {
      slug: 'zyxomatic',
      name: 'Zyxomatic',
      description: 'Qwertyuiop helper',
      website: 'https://z.example',
    });
    expect(await found('qwertyuio')).toEqual(['zyxomatic']);
    await upsertTool(db, {
      slug: 'zyxomatic',
      name: 'Zyxomatic',
      description: 'Something else',
      website: 'https://z.example',
    });
    expect(await found('qwertyuio')).toEqual([]);
    await publicWrite(
      db,
      async (trx) =>
        Number((await trx.deleteFrom('tools').where('slug', '=', 'zyxomatic').executeTakeFirst()).numDeletedRows) > 0,
    );
    expect(await found('zyxomatic')).toEqual([]);
  });

  it('keeps its index in the database: one row per listed tool, on the engine of the database', async () => {
    await request(app).get('/api/tools').query({ search: 'meeting' });
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM tool_search`.execute(db);
    expect(Number(rows[0].n)).toBe((await listToolSummaries(db)).length);
  });

  it('offers "did you mean" names when nothing matches', async () => {
    const cases: [string, string][] = [
      ['githb', 'GitHub'],
      ['postgress', 'PostgreSQL'],
      ['calude', 'Claude'],
    ];
    for (const [typo, expected] of cases) {
      const res = await request(app).get('/api/tools').query({ search: typo });
      expect(res.body.data).toEqual([]);
      expect(res.body.suggestions, typo).toContain(expected);
    }
    const found = await request(app).get('/api/tools').query({ search: 'github' });
    expect(found.body.suggestions).toBeUndefined();
  });

  it('answers the whole list without a search, as before', async () => {
    const res = await request(app).get('/api/tools').query({ search: '  ' });
    expect(res.body.data).toHaveLength((await listToolSummaries(db)).length);
  });
});

describe('one order on every search route', () => {
  it('/v0.1/servers?search= lists MCP servers in the order GET /api/tools/query gives them', async () => {
    for (const search of ['database', 'browser automation', 'let my assistant control chrome', 'issues']) {
      const page = await request(app).get('/api/tools/query').query({ search, type: 'mcp-servers', size: '96' });
      const tools = page.body.tools.map((t: ToolSummary) => t.slug);
      const res = await request(app).get('/v0.1/servers').query({ search, limit: '100' });
      expect(res.status).toBe(200);
      const servers = res.body.servers.map(
        (s: { _meta: Record<string, { slug: string }> }) => Object.values(s._meta)[0].slug,
      );
      expect(tools.length, search).toBeGreaterThan(0);
      expect(servers.slice(0, tools.length), search).toEqual(tools);
    }
  });

  it('pages /v0.1/servers?search= by cursor in that order', async () => {
    const search = 'database';
    const whole = (await request(app).get('/v0.1/servers').query({ search, limit: '100' })).body.servers;
    const first = await request(app).get('/v0.1/servers').query({ search, limit: '2' });
    const next = await request(app)
      .get('/v0.1/servers')
      .query({ search, limit: '2', cursor: first.body.metadata.nextCursor });
    const names = (list: { server: { name: string } }[]) => list.map((s) => s.server.name);
    expect([...names(first.body.servers), ...names(next.body.servers)]).toEqual(names(whole).slice(0, 4));
  });
});

describe('similar tools', () => {
  it('are 6 tools of the same type, sharing category or tags, never the tool itself', async () => {
    for (const slug of ['github-mcp-server', 'postgres-mcp-server', 'cursor', 'midjourney']) {
      const res = await request(app).get(`/api/tools/${slug}`);
      const similar = res.body.similar as ToolSummary[];
      expect(similar.length, slug).toBe(6);
      expect(similar.map((t) => t.slug)).not.toContain(slug);
      const isMcp = (c?: string) => c === 'MCP' || c === 'MCP Servers';
      for (const t of similar) expect(isMcp(t.category), `${slug} -> ${t.slug}`).toBe(isMcp(res.body.category));
    }
  });

  it('rank tools sharing rare tags first (databases for a database server, assistants for an assistant)', async () => {
    const all = await listToolSummaries(db);
    const of = (slug: string) =>
      similarTools(
        all.find((t) => t.slug === slug)!,
        all,
      ).map((t) => t.slug);
    expect(of('postgres-mcp-server').slice(0, 5)).toEqual(
      expect.arrayContaining(['sqlite-mcp-server', 'supabase-mcp-server', 'postgres-mcp-pro-mcp-server']),
    );
    expect(of('claude').slice(0, 3)).toContain('chatgpt');
    expect(of('linear-mcp-server')[0]).toBe('atlassian-mcp-server');
  });
});

describe('GET /api/tools/:slug for an MCP server', () => {
  it('carries its server.json record; an AI tool has none', async () => {
    const mcp = await request(app).get('/api/tools/brave-search-mcp-server');
    expect(mcp.body.mcpServer).toMatchObject({
      name: 'io.github.modelcontextprotocol/brave-search',
      packages: [
        {
          registryType: 'npm',
          identifier: '@modelcontextprotocol/server-brave-search',
          runtimeHint: 'npx',
          transport: { type: 'stdio' },
        },
      ],
    });
    expect(mcp.body.mcpServer.packages[0].environmentVariables[0]).toMatchObject({
      name: 'BRAVE_API_KEY',
      isRequired: true,
      isSecret: true,
    });
    const ai = await request(app).get('/api/tools/cursor');
    expect(ai.body.mcpServer).toBeUndefined();
  });
});
