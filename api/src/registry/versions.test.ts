import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import request from 'supertest';
import { createApp } from '../app';
import { loadConfig } from '../config';
import { openTestDatabase } from '../db/testDatabase';
import { createLogger } from '../middleware/logger';
import { seed } from '../db/seed';
import type { ServerJson } from '@aitools/contracts/mcp';
import { seedMcpServers } from './seed';
import { npmPackageOf, readVersionsFile, refreshVersions, SERVERS_FILE, type NpmFacts } from './versions';

const records = JSON.parse(readFileSync(SERVERS_FILE, 'utf8')) as Record<string, ServerJson>;
const versions = readVersionsFile()!;
const schema = JSON.parse(
  readFileSync(join(import.meta.dirname, 'testdata', 'server.schema.2025-12-11.json'), 'utf8'),
) as object;

describe('seed records against the registry`s own rules', () => {
  it('every record with a version is valid against the published server.json schema (2025-12-11)', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const validate = ajv.compile(schema);
    let checked = 0;
    for (const [slug, doc] of Object.entries(records)) {
      if (!doc.version) continue;
      expect(validate(doc), `${slug}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      expect(doc.$schema).toBe((schema as { $id: string }).$id);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(26);
    // The schema does refuse what the registry refuses.
    expect(validate({ ...records['filesystem-mcp-server'], version: undefined })).toBe(false);
    expect(
      validate({
        ...records['filesystem-mcp-server'],
        packages: [{ ...records['filesystem-mcp-server']!.packages![0], version: 'latest' }],
      }),
    ).toBe(false);
  });

  it('every server as /v0.1 answers it is valid against the same schema (a record without a checked version says "unknown")', async () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const validate = ajv.compile(schema);
    const db = await openTestDatabase();
    await seed(db);
    const app = await createApp({
      config: loadConfig({ ...process.env, NODE_ENV: 'test', SITE_ORIGIN: 'https://dir.example' }),
      db,
      logger: createLogger('silent'),
      pages: false,
    });
    const { body } = await request(app).get('/v0.1/servers?limit=100');
    expect(body.servers).toHaveLength(Object.keys(records).length);
    for (const { server } of body.servers as { server: ServerJson }[])
      expect(validate(server), `${server.name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  });

  it('no record with an npm package has version "unknown" or none: each has the release npm reported on the day checked', () => {
    for (const [slug, doc] of Object.entries(records)) {
      const pkg = npmPackageOf(doc);
      const source = versions.servers[slug];
      expect(source, slug).toBeDefined();
      if (!pkg) {
        expect(source).toMatchObject({ source: 'none', reason: expect.stringMatching(/not checked|no package/) });
        continue;
      }
      expect(doc.version, slug).toMatch(/^\d+\.\d+\.\d+/);
      expect(source).toMatchObject({ source: 'npm', package: pkg.identifier, version: doc.version });
      // Names equal the mcpName the package publishes, where it publishes one.
      if (source?.source === 'npm' && source.mcpName) expect(doc.name, slug).toBe(source.mcpName);
    }
    expect(versions.checkedAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

describe('pnpm registry versions', () => {
  const text = readFileSync(SERVERS_FILE, 'utf8');
  const facts: Record<string, NpmFacts> = {};
  for (const doc of Object.values(records)) {
    const pkg = npmPackageOf(doc);
    if (pkg) facts[pkg.identifier] = { version: doc.version!, mcpName: doc.name };
  }

  it('changes only the version and name lines of the records whose package moved on', async () => {
    const view = async (pkg: string) =>
      pkg === '@upstash/context7-mcp'
        ? { version: '9.9.9', mcpName: 'io.github.upstash/context7-next', published: '2026-11-24T00:00:00Z' }
        : facts[pkg]!;
    const result = await refreshVersions({ serversText: text, previous: versions, view, today: '2026-11-25' });
    const before = text.split('\n');
    const after = result.text.split('\n');
    expect(after).toHaveLength(before.length);
    const changed = after.flatMap((line, i) => (line === before[i] ? [] : [line.trim()]));
    expect(changed).toEqual(['"name": "io.github.upstash/context7-next",', '"version": "9.9.9",']);
    expect(result.versions.renamed['io.github.upstash/context7']).toBe('io.github.upstash/context7-next');
    expect(result.versions.servers['context7-mcp-server']).toEqual({
      source: 'npm',
      package: '@upstash/context7-mcp',
      version: '9.9.9',
      published: '2026-11-24T00:00:00Z',
      mcpName: 'io.github.upstash/context7-next',
    });
    expect(result.changes).toEqual([
      'context7-mcp-server: version 4.1.1 -> 9.9.9'.replace('4.1.1', records['context7-mcp-server']!.version!),
      'context7-mcp-server: name io.github.upstash/context7 -> io.github.upstash/context7-next',
    ]);
  });

  it('adds a version line after the description of a record that had none', async () => {
    const { version: _drop, ...bare } = records['brave-search-mcp-server']!;
    const without = JSON.stringify({ 'brave-search-mcp-server': bare }, null, 2);
    const result = await refreshVersions({
      serversText: without,
      view: async () => ({ version: '0.6.2' }),
      today: '2026-11-25',
    });
    expect(JSON.parse(result.text)['brave-search-mcp-server']).toEqual({ ...bare, version: '0.6.2' });
    expect(result.text.split('\n').findIndex((l) => l.includes('"version"'))).toBe(
      without.split('\n').findIndex((l) => l.includes('"description"')) + 1,
    );
  });
});

describe('a renamed server', () => {
  it('keeps its old /v0.1 address working with a redirect, and the seed replaces the old row', async () => {
    const db = await openTestDatabase();
    await seed(db);
    // A database seeded before the rename still holds the old name: seeding again replaces it.
    await db
      .updateTable('mcp_servers')
      .set({ name: 'io.github.modelcontextprotocol/filesystem' })
      .where('tool_slug', '=', 'filesystem-mcp-server')
      .execute();
    await seedMcpServers(db);
    const names = (
      await db.selectFrom('mcp_servers').select('name').where('tool_slug', '=', 'filesystem-mcp-server').execute()
    ).map((r) => r.name);
    expect(names).toEqual(['io.github.modelcontextprotocol/server-filesystem']);
    const app = await createApp({
      config: loadConfig({ ...process.env, NODE_ENV: 'test', SITE_ORIGIN: 'https://dir.example' }),
      db,
      logger: createLogger('silent'),
      pages: false,
    });
    const old = await request(app).get('/v0.1/servers/io.github.modelcontextprotocol%2Ffilesystem/versions/latest');
    expect(old.status).toBe(301);
    expect(old.headers.location).toBe(
      '/v0.1/servers/io.github.modelcontextprotocol%2Fserver-filesystem/versions/latest',
    );
    const now = await request(app).get(old.headers.location!);
    expect(now.status).toBe(200);
    expect(now.body.server).toMatchObject({
      name: 'io.github.modelcontextprotocol/server-filesystem',
      version: records['filesystem-mcp-server']!.version,
    });
    expect((await request(app).get('/v0.1/servers/com.supabase%2Fmcp/versions')).body.servers[0].server.name).toBe(
      'com.supabase/mcp',
    );
  });
});
