import { beforeEach, describe, expect, it } from 'vitest';
import request from 'supertest';
import type { Express } from 'express';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { createApp } from '../app';
import { loadConfig } from '../config';
import type { DB } from '../db/connection';
import { countRows, openTestDatabase } from '../../test/testDatabase';
import { createLogger } from '../middleware/logger';
import { seed } from '../seed';
import { DATA_DIR } from '../paths';
import { META_KEY, mcpSeedRecordSchema, serverJsonSchema } from '@aitools/contracts/mcp';
import { approveSubmission } from '../moderation/service';
import { getServerByToolSlug, getSubmissionServer } from './repository';
import { formatSummary, importServers } from './import';
import { seedMcpServers } from './seed';
import { setToolHidden } from '../tools/editing';
import { recordHealth } from '../checks/health';
import { toolAnswer } from '../mcp/answers';

const EXAMPLES = join(DATA_DIR, 'mcp-examples');
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

describe('seeded server records', () => {
  it("gives each of the 43 MCP servers (the directory's own among them) a valid server.json record, and nothing else one", async () => {
    const records = JSON.parse(readFileSync(join(DATA_DIR, 'mcp-servers.json'), 'utf8')) as Record<string, unknown>;
    const mcpSlugs = (
      await db
        .selectFrom('tools')
        .select('slug')
        .where('category', 'in', ['MCP Servers', 'MCP'])
        .orderBy('slug')
        .execute()
    ).map((r) => r.slug);
    expect(mcpSlugs).toHaveLength(43);
    expect(Object.keys(records).sort()).toEqual(mcpSlugs);
    for (const [slug, rec] of Object.entries(records))
      expect(mcpSeedRecordSchema.safeParse(rec).success, slug).toBe(true);
    const names = Object.values(records).map((r) => (r as { name: string }).name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('keeps secrets out of the data: secret inputs carry no value or default', () => {
    const text = readFileSync(join(DATA_DIR, 'mcp-servers.json'), 'utf8');
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) return v.forEach(walk);
      if (!v || typeof v !== 'object') return;
      const o = v as Record<string, unknown>;
      if (o.isSecret === true) expect(o.default, JSON.stringify(o)).toBeUndefined();
      if (o.isSecret === true && typeof o.value === 'string') expect(o.value).toMatch(/\{\w+\}/);
      Object.values(o).forEach(walk);
    };
    walk(JSON.parse(text));
  });

  it('never lets the seed overwrite a record an import wrote', async () => {
    await importServers(db, join(EXAMPLES, 'context7.server.json'));
    await seedMcpServers(db);
    expect((await getServerByToolSlug(db, 'context7-mcp-server'))?.remotes).toBeUndefined();
  });
});

describe('pnpm registry import', () => {
  it('adds new servers as pending submissions, updates known ones and refuses invalid documents with reasons', async () => {
    const summary = await importServers(db, EXAMPLES);
    expect(summary.added.map((a) => a.name).sort()).toEqual([
      'io.github.user/local-weather',
      'io.github.user/remote-weather',
      'io.github.user/weather',
      'io.modelcontextprotocol/filesystem',
    ]);
    expect(summary.updated).toEqual([{ name: 'io.github.upstash/context7', target: '/tool/context7-mcp-server' }]);
    expect(summary.refused.map((r) => r.source).sort()).toEqual([
      'invalid/bad-name-pattern.json',
      'invalid/package-version-latest.json',
    ]);
    expect(summary.refused.find((r) => r.source.includes('latest'))!.reasons.join()).toMatch(/packages\.0\.version/);
    const pending = await db.selectFrom('submissions').select(['name', 'status', 'tool_type']).orderBy('id').execute();
    expect(pending).toHaveLength(4);
    for (const p of pending) expect(p).toMatchObject({ status: 'pending', tool_type: 'mcp-server' });
    expect((await getServerByToolSlug(db, 'context7-mcp-server'))?.packages?.[0].version).toBe('1.0.26');
    expect(formatSummary(summary)).toMatch(/^Added 4, updated 1, refused 2\./);
  });

  it('updates a still-pending server on a second import instead of adding it twice', async () => {
    await importServers(db, join(EXAMPLES, 'local-weather.server.json'));
    const again = await importServers(db, join(EXAMPLES, 'local-weather.server.json'));
    expect(again.added).toEqual([]);
    expect(again.updated[0].target).toMatch(/^pending submission \d+$/);
    expect(await countRows(db, 'submissions')).toBe(1);
  });

  it('reads a saved /v0.1/servers answer entry by entry', async () => {
    const summary = await importServers(db, join(EXAMPLES, 'registry-list.json'));
    expect(summary.added.map((a) => a.name)).toEqual(['io.github.user/weather', 'io.modelcontextprotocol/filesystem']);
  });

  it('approving an imported server creates the tool with its record, and its page data carries install details', async () => {
    const { added } = await importServers(db, join(EXAMPLES, 'local-weather.server.json'));
    const id = added[0].submissionId;
    expect((await getSubmissionServer(db, id))?.name).toBe('io.github.user/local-weather');
    const { slug } = await approveSubmission(db, id);
    expect(slug).toBe('local-weather');
    const res = await request(app).get(`/api/tools/${slug}`);
    expect(res.body).toMatchObject({ name: 'local-weather', category: 'MCP Servers', mcpBadge: 'Community' });
    expect(res.body.mcpServer.packages[0].identifier).toBe('@modelcontextprotocol/server-weather');
    const listed = await request(app).get('/v0.1/servers/io.github.user%2Flocal-weather/versions/latest');
    expect(listed.body._meta[META_KEY].url).toBe('https://dir.example/tool/local-weather');
  });
});

describe('GET /v0.1/servers (registry read API)', () => {
  it('answers the registry shape with our additions under a namespaced _meta key', async () => {
    const res = await request(app).get('/v0.1/servers?limit=5');
    expect(res.status).toBe(200);
    expect(res.body.metadata.count).toBe(5);
    expect(typeof res.body.metadata.nextCursor).toBe('string');
    for (const entry of res.body.servers) {
      expect(serverJsonSchema.safeParse(entry.server).success, entry.server.name).toBe(true);
      expect(entry._meta[META_KEY]).toMatchObject({
        category: 'MCP Servers',
        url: expect.stringMatching(/^https:\/\/dir\.example\/tool\//),
      });
    }
  });

  it('pages through every server with the cursor, each once, in name order', async () => {
    const names: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 20; i++) {
      const res = await request(app)
        .get('/v0.1/servers')
        .query({ limit: 10, ...(cursor ? { cursor } : {}) });
      names.push(...res.body.servers.map((s: { server: { name: string } }) => s.server.name));
      cursor = res.body.metadata.nextCursor;
      if (!cursor) break;
    }
    expect(names).toHaveLength(43);
    expect([...names].sort()).toEqual(names);
    expect(new Set(names).size).toBe(43);
  });

  it('filters by search and updated_since, and refuses bad parameters', async () => {
    const search = await request(app).get('/v0.1/servers?search=GITHUB');
    expect(search.body.servers.map((s: { server: { name: string } }) => s.server.name)).toContain(
      'io.github.github/github-mcp-server',
    );
    expect(
      search.body.servers.every((s: { server: { name: string; title?: string } }) =>
        /github/i.test(s.server.name + (s.server.title ?? '')),
      ),
    ).toBe(true);
    const recent = await request(app).get('/v0.1/servers?updated_since=2026-11-01T00:00:00Z');
    expect(recent.body.servers.map((s: { server: { name: string } }) => s.server.name).sort()).toEqual([
      'io.aitoolsdirectory/directory',
      'io.github.github/github-mcp-server',
      'io.github.upstash/context7',
    ]);
    for (const bad of [
      'limit=0',
      'limit=abc',
      'limit=101',
      'cursor=%%%',
      'updated_since=yesterday',
      'updated_since=0',
      'updated_since=2026-02-30T00:00:00Z',
      'updated_since=2026-11-01',
    ])
      expect((await request(app).get(`/v0.1/servers?${bad}`)).status, bad).toBe(400);
  });

  it('lists a server hidden since updated_since as deleted (so a registry following ours drops it), and never otherwise', async () => {
    const row = await db
      .selectFrom('mcp_servers')
      .select(['name', 'tool_slug'])
      .where('name', '=', 'io.github.github/github-mcp-server')
      .executeTakeFirstOrThrow();
    await db
      .updateTable('tools')
      .set({ hidden_at: '2026-11-25T12:00:00.000Z' })
      .where('slug', '=', row.tool_slug)
      .execute();
    const entryOf = (body: { servers: { server: { name: string }; _meta: Record<string, { status: string }> }[] }) =>
      body.servers.find((s) => s.server.name === row.name);
    const changes = await request(app).get('/v0.1/servers?updated_since=2026-11-25T00:00:00Z');
    expect(entryOf(changes.body)?._meta[META_KEY]).toMatchObject({
      status: 'deleted',
      updatedAt: '2026-11-25T12:00:00.000Z',
    });
    // Hidden before the time asked: not a change since then.
    expect(entryOf((await request(app).get('/v0.1/servers?updated_since=2026-11-26T00:00:00Z')).body)).toBeUndefined();
    expect(entryOf((await request(app).get('/v0.1/servers?limit=100')).body)).toBeUndefined();
    expect((await request(app).get(`/v0.1/servers/${encodeURIComponent(row.name)}/versions/latest`)).status).toBe(404);
  });

  it('lists a server shown again since updated_since as active, with the time it was shown as updatedAt', async () => {
    const editor = { actor: 'editor@example.com', address: '203.0.113.5' };
    const name = 'io.github.upstash/context7';
    type Changes = {
      servers: { server: { name: string }; _meta: Record<string, { status: string; updatedAt: string }> }[];
    };
    const changeOf = async (since: string) =>
      ((await request(app).get(`/v0.1/servers?updated_since=${since}`)).body as Changes).servers.find(
        (s) => s.server.name === name,
      )?._meta[META_KEY];
    const before = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    await setToolHidden(db, 'context7-mcp-server', true, editor);
    const hidden = await changeOf(before);
    expect(hidden?.status).toBe('deleted');
    await new Promise((r) => setTimeout(r, 5));
    await setToolHidden(db, 'context7-mcp-server', false, editor);
    // A follower that read the deletion (at its time) or not at all: both see it back, at the time it came back.
    for (const since of [hidden!.updatedAt, before]) {
      const shown = await changeOf(since);
      expect(shown?.status, since).toBe('active');
      expect(shown!.updatedAt > hidden!.updatedAt, since).toBe(true);
    }
    const latest = await request(app).get(`/v0.1/servers/${encodeURIComponent(name)}/versions/latest`);
    expect(latest.body._meta[META_KEY].updatedAt).toBe((await changeOf(before))!.updatedAt);
  });

  it('filters before it pages: full pages, and a nextCursor only when another server passes the filters', async () => {
    await recordHealth(db, [
      { slug: 'linear-mcp-server', result: { status: 'healthy', ms: 140 } },
      { slug: 'github-mcp-server', result: { status: 'healthy', ms: 90 } },
    ]);
    type Page = { servers: { server: { name: string } }[]; metadata: { count: number; nextCursor?: string } };
    for (const filter of ['health=healthy', 'version=unknown', 'findings=none']) {
      const all = (await request(app).get(`/v0.1/servers?limit=100&${filter}`)).body as Page;
      expect(all.servers.length, filter).toBeGreaterThan(1);
      const walked: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 50; i++) {
        const res = await request(app)
          .get(`/v0.1/servers?limit=1&${filter}`)
          .query(cursor ? { cursor } : {});
        const page = res.body as Page;
        expect(page.metadata.count, `${filter} page ${i}`).toBe(1);
        walked.push(page.servers[0].server.name);
        cursor = page.metadata.nextCursor;
        if (!cursor) break;
      }
      expect(walked, filter).toEqual(all.servers.map((s) => s.server.name));
    }
  });

  it('refuses a search cursor whose server has left the results, rather than end the walk as if it were done', async () => {
    const first = (await request(app).get('/v0.1/servers?search=github&limit=3')).body as {
      servers: { _meta: Record<string, { slug: string }> }[];
      metadata: { nextCursor?: string };
    };
    const cursor = first.metadata.nextCursor!;
    expect(cursor).toBeTruthy();
    // The cursor still names a server of the results: the walk goes on.
    const next = await request(app).get('/v0.1/servers').query({ search: 'github', limit: 3, cursor });
    expect(next.status).toBe(200);
    expect(next.body.metadata.count).toBeGreaterThan(0);
    await setToolHidden(db, first.servers[2]._meta[META_KEY].slug, true, {
      actor: 'editor@example.com',
      address: '203.0.113.5',
    });
    const gone = await request(app).get('/v0.1/servers').query({ search: 'github', limit: 3, cursor });
    expect(gone.status).toBe(400);
    expect(gone.body).toEqual({
      error:
        'cursor no longer names a server in these results (it was removed or is no longer found): start again without it',
    });
  });

  it('reads limit as decimal digits and a cursor as exactly one it gave, else 400 with the reason', async () => {
    const cursor = Buffer.from('io.github.github/github-mcp-server').toString('base64url');
    expect((await request(app).get(`/v0.1/servers?cursor=${cursor}`)).status).toBe(200);
    for (const bad of ['0x10', '0b11', '1e1', '10.', '%2010%20', '+10', '-1', '']) {
      const res = await request(app).get(`/v0.1/servers?limit=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body, bad).toEqual({ error: 'limit must be a whole number from 1 to 100, in decimal digits' });
    }
    for (const bad of [`${cursor}!!!`, `${cursor}=`, `%20${cursor}`, 'Zm9vL2Jhcg!!!', '-_-_']) {
      const res = await request(app).get(`/v0.1/servers?cursor=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body, bad).toEqual({ error: 'cursor is not one this registry returned' });
    }
  });

  it('gives each page`s url on the site`s origin as configured, as the MCP server`s get_tool does', async () => {
    const plain = await createApp({
      config: loadConfig({ ...process.env, NODE_ENV: 'test', SITE_ORIGIN: 'http://localhost:8480' }),
      db,
      logger: createLogger('silent'),
      pages: false,
    });
    const res = await request(plain).get('/v0.1/servers/io.github.upstash%2Fcontext7/versions/latest');
    expect(res.body._meta[META_KEY].url).toBe('http://localhost:8480/tool/context7-mcp-server');
    expect((await toolAnswer(db, 'http://localhost:8480', 'context7-mcp-server')).url).toBe(
      res.body._meta[META_KEY].url,
    );
  });

  it('serves one server by its URL-encoded name, 404 for an unknown one', async () => {
    const res = await request(app).get('/v0.1/servers/io.github.github%2Fgithub-mcp-server/versions/latest');
    expect(res.status).toBe(200);
    // The image's release is its identifier's tag, as the registry writes it; the server's version is that release.
    expect(res.body.server.packages[0]).toMatchObject({
      registryType: 'oci',
      identifier: 'ghcr.io/github/github-mcp-server:1.10.1',
    });
    expect(res.body.server.packages[0].version).toBeUndefined();
    expect(res.body.server.remotes[0]).toMatchObject({
      type: 'streamable-http',
      url: 'https://api.githubcopilot.com/mcp/',
    });
    expect(res.body.server.version).toBe('1.10.1');
    // A remote-only server has no package to take a version from: the registry's required field says so.
    const linear = await request(app).get('/v0.1/servers/app.linear%2Flinear/versions/latest');
    expect(linear.body.server.version).toBe('unknown');
    expect((await request(app).get('/v0.1/servers/io.example%2Fnope/versions/latest')).status).toBe(404);
  });
});

describe('/v0.1 for clients in other origins', () => {
  it('answers every GET with Access-Control-Allow-Origin: * and a cross-origin resource policy', async () => {
    for (const path of [
      '/v0.1/servers?limit=1',
      '/v0.1/servers/io.github.github%2Fgithub-mcp-server/versions/latest',
      '/v0.1/nope',
    ]) {
      const res = await request(app).get(path).set('Origin', 'https://ide.example');
      expect(res.headers['access-control-allow-origin'], path).toBe('*');
      expect(res.headers['cross-origin-resource-policy'], path).toBe('cross-origin');
    }
  });

  it('answers a preflight for GET with 204 and the allowed methods and headers', async () => {
    const res = await request(app)
      .options('/v0.1/servers')
      .set('Origin', 'https://ide.example')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'x-client-version, accept');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toMatch(/\bGET\b/);
    expect(res.headers['access-control-allow-methods']).toMatch(/\bOPTIONS\b/);
    expect(res.headers['access-control-allow-headers']).toBe('x-client-version, accept');
    const bare = await request(app)
      .options('/v0.1/servers/io.github.github%2Fgithub-mcp-server/versions/latest')
      .set('Origin', 'https://ide.example')
      .set('Access-Control-Request-Method', 'GET');
    expect(bare.status).toBe(204);
    expect(bare.headers['access-control-allow-headers']).toMatch(/Accept/);
  });

  it('answers any other path under /v0.1 with a JSON { error } and 404, even to a browser asking for HTML', async () => {
    for (const path of [
      '/v0.1',
      '/v0.1/',
      '/v0.1/nope',
      '/v0.1/servers/io.github.github%2Fgithub-mcp-server',
      '/v0.1/servers/a/b/c/d',
    ]) {
      const res = await request(app).get(path).set('Accept', 'text/html,application/xhtml+xml');
      expect(res.status, path).toBe(404);
      expect(res.headers['content-type'], path).toMatch(/^application\/json/);
      expect(typeof res.body.error, path).toBe('string');
    }
    const post = await request(app).post('/v0.1/servers').send({});
    expect(post.status).toBe(405);
    expect(post.body.error).toMatch(/read-only/);
  });

  it('answers an address that is not valid percent-encoding with a 400 in the registry`s { error }', async () => {
    for (const path of ['/v0.1/servers/%ZZ/versions', '/v0.1/servers/a%E0%A4%A/versions/1.0.0']) {
      const res = await request(app).get(path);
      expect(res.status, path).toBe(400);
      expect(res.body, path).toEqual({ error: 'The address is not valid percent-encoding' });
    }
  });
});
