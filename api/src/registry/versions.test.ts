import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import request from 'supertest';
import { createApp } from '../app';
import { loadConfig } from '../config';
import { openTestDatabase } from '../../test/testDatabase';
import { createLogger } from '../middleware/logger';
import { seed } from '../seed';
import type { ServerJson } from '@aitools/contracts/mcp';
import { seedMcpServers } from './seed';
import {
  isKeptSource,
  npmPackageOf,
  readVersionsFile,
  refreshVersions,
  SERVERS_FILE,
  versionRefusal,
  type NpmFacts,
} from './versions';

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
    // Every record but the five remote-only ones.
    expect(checked).toBe(Object.values(records).filter((d) => d.packages?.length).length);
    expect(checked).toBe(37);
    // The schema does refuse what the registry refuses.
    expect(validate({ ...records['filesystem-mcp-server'], version: undefined })).toBe(false);
    expect(
      validate({
        ...records['filesystem-mcp-server'],
        packages: [{ ...records['filesystem-mcp-server']!.packages![0], version: 'latest' }],
      }),
    ).toBe(false);
  });

  it('every server as /v0.1 answers it is valid against the same schema; only remote-only records say "unknown", and an image names its release by its tag', async () => {
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
    const bySlug = new Map(Object.entries(records).map(([slug, doc]) => [doc.name, slug]));
    for (const { server } of body.servers as { server: ServerJson }[]) {
      expect(validate(server), `${server.name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      const record = records[bySlug.get(server.name)!]!;
      expect(server.version, server.name).toBe(record.packages?.length ? record.version : 'unknown');
      // The registry gives an image's version as its identifier's tag (registry/namespace/repository:tag), not as
      // a separate version: the seed's tag moves there.
      for (const [i, pkg] of (server.packages ?? []).entries()) {
        const seeded = record.packages![i]!;
        if (pkg.registryType !== 'oci') expect(pkg).toEqual(seeded);
        else if (seeded.version) {
          expect(pkg.identifier).toBe(`${seeded.identifier}:${seeded.version}`);
          expect(pkg.version).toBeUndefined();
        } else expect(pkg.identifier).toBe(seeded.identifier);
      }
    }
    const github = (body.servers as { server: ServerJson }[]).find(
      (s) => s.server.name === 'io.github.github/github-mcp-server',
    )!.server;
    expect(github.packages![0]!.identifier).toBe(`ghcr.io/github/github-mcp-server:${github.version}`);
  });

  it('no packaged record has version "unknown" or none: each names its source, npm on the day checked', () => {
    for (const [slug, doc] of Object.entries(records)) {
      const pkg = npmPackageOf(doc);
      const source = versions.servers[slug];
      expect(source, slug).toBeDefined();
      if (!doc.packages?.length) {
        // Remote only: there is no package to take a version from, and none is invented.
        expect(doc.version, slug).toBeUndefined();
        expect(source).toEqual({ source: 'none', reason: 'Remote only: no package to take a version from' });
        continue;
      }
      expect(doc.version, slug).toMatch(/^\d+\.\d+\.\d+/);
      if (!pkg) {
        // PyPI and image registries are out of reach from here: the version comes from the project's release tag
        // or a stored page of the registry's data, with where and when it was read.
        expect(isKeptSource(source), `${slug}: ${source?.source}`).toBe(true);
        expect(source).toMatchObject({ version: doc.version, seen: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
        if (source?.source === 'repository') {
          expect(source.repository).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
          expect(source.commit).toMatch(/^[0-9a-f]{40}$/);
          expect(Number.isNaN(Date.parse(source.committed)), slug).toBe(false);
          expect(source.read.length).toBeGreaterThan(10);
        }
        if (source?.source === 'registry-page') expect(source.url).toMatch(/^https:\/\//);
        expect(source && 'note' in source && source.note).toMatch(/cannot be reached from where the data is written/);
        continue;
      }
      expect(source).toMatchObject({ source: 'npm', package: pkg.identifier, version: doc.version });
      // Names equal the mcpName the package publishes, where it publishes one.
      if (source?.source === 'npm' && source.mcpName) expect(doc.name, slug).toBe(source.mcpName);
    }
    expect(Object.values(versions.servers).filter((s) => s.source === 'npm')).toHaveLength(26);
    expect(Object.values(versions.servers).filter(isKeptSource)).toHaveLength(11);
    expect(versions.checkedAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('every package version names its source`s release, and every version passes the registry`s version rule', () => {
    let npmPackages = 0;
    let otherVersions = 0;
    for (const [slug, doc] of Object.entries(records)) {
      if (doc.version) expect(versionRefusal(doc.version), `${slug} version`).toBeUndefined();
      const source = versions.servers[slug];
      for (const pkg of doc.packages ?? []) {
        if (pkg.registryType !== 'npm') {
          // A PyPI release or an image tag, from the recorded source; or none, with the reason written down.
          expect(source?.source, `${slug} ${pkg.identifier}`).not.toBe('none');
          if (!source || source.source === 'none') continue;
          if (source.source === 'npm') expect(pkg.version, `${slug} ${pkg.identifier}`).toBeUndefined();
          if (pkg.version && isKeptSource(source)) {
            otherVersions++;
            expect(versionRefusal(pkg.version), `${slug} ${pkg.identifier}`).toBeUndefined();
            expect(source.packageVersions[pkg.identifier], `${slug} ${pkg.identifier}`).toBe(pkg.version);
          } else expect(source.unversioned?.[pkg.identifier], `${slug} ${pkg.identifier}`).toMatch(/stays unpinned/);
          continue;
        }
        npmPackages++;
        // The registry asks npm for <identifier>/<version> and reads the mcpName there: no version, no publish.
        expect(versionRefusal(pkg.version), `${slug} ${pkg.identifier}`).toBeUndefined();
        expect(pkg.version).toMatch(/^\d+\.\d+\.\d+/);
        expect(source?.source === 'npm' && source.packageVersions[pkg.identifier], slug).toBe(pkg.version);
      }
      // The record follows its npm package's release: the one the package version names.
      const first = npmPackageOf(doc);
      if (first) expect(first.version, slug).toBe(doc.version);
      // No source names a package the record does not have.
      if (isKeptSource(source))
        for (const id of [...Object.keys(source.packageVersions), ...Object.keys(source.unversioned ?? {})])
          expect(
            doc.packages?.map((p) => p.identifier),
            slug,
          ).toContain(id);
    }
    expect(npmPackages).toBe(26);
    // 9 PyPI releases and 3 image tags; Docker's catalog images (mcp/fetch, mcp/time, mcp/grafana) stay unpinned.
    expect(otherVersions).toBe(12);
  });

  it('refuses what the registry refuses, and accepts its non-semver versions', () => {
    for (const refused of [
      'latest',
      '^1.2.3',
      '~1.2.3',
      '>=1.0.0',
      '<1.0.0',
      '=1.0.0',
      '1.x',
      '1.2.*',
      '1.2.X',
      '1 - 2',
      '1.2 || 1.3',
      'x'.repeat(256),
      '',
      undefined,
    ])
      expect(versionRefusal(refused), String(refused)).toBeDefined();
    for (const accepted of ['1.0.2', '2.1.0-alpha', '2026.8.31', '0.0.83', 'v1.2.3', '20250101', 'next-gen'])
      expect(versionRefusal(accepted), accepted).toBeUndefined();
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
    expect(changed).toEqual([
      '"name": "io.github.upstash/context7-next",',
      '"version": "9.9.9",',
      '"version": "9.9.9",',
    ]);
    expect(JSON.parse(result.text)['context7-mcp-server'].packages[0].version).toBe('9.9.9');
    expect(result.versions.renamed['io.github.upstash/context7']).toBe('io.github.upstash/context7-next');
    expect(result.versions.servers['context7-mcp-server']).toEqual({
      source: 'npm',
      package: '@upstash/context7-mcp',
      version: '9.9.9',
      published: '2026-11-24T00:00:00Z',
      mcpName: 'io.github.upstash/context7-next',
      packageVersions: { '@upstash/context7-mcp': '9.9.9' },
    });
    const before41 = records['context7-mcp-server']!.version!;
    expect(result.changes).toEqual([
      `context7-mcp-server: package @upstash/context7-mcp version ${before41} -> 9.9.9`,
      `context7-mcp-server: version ${before41} -> 9.9.9`,
      'context7-mcp-server: name io.github.upstash/context7 -> io.github.upstash/context7-next',
    ]);
  });

  it('adds a version line after the description of a record that had none, and one after its package`s identifier', async () => {
    const { version: _drop, ...bare } = records['brave-search-mcp-server']!;
    const packages = bare.packages!.map(({ version: _v, ...pkg }) => pkg);
    const without = JSON.stringify({ 'brave-search-mcp-server': { ...bare, packages } }, null, 2);
    const result = await refreshVersions({
      serversText: without,
      view: async () => ({ version: '0.6.2' }),
      today: '2026-11-25',
    });
    expect(JSON.parse(result.text)['brave-search-mcp-server']).toEqual({
      ...bare,
      version: '0.6.2',
      packages: [{ ...packages[0], version: '0.6.2' }],
    });
    const lines = result.text.split('\n');
    const versionLines = lines.flatMap((l, i) => (l.includes('"version"') ? [i] : []));
    expect(versionLines).toEqual([
      without.split('\n').findIndex((l) => l.includes('"description"')) + 1,
      lines.findIndex((l) => l.includes('"identifier"')) + 1,
    ]);
    expect(lines).toHaveLength(without.split('\n').length + 2);
  });

  it('keeps the versions it cannot check from here, with their sources, and says which records those are', async () => {
    const view = async (pkg: string) => facts[pkg]!;
    const result = await refreshVersions({ serversText: text, previous: versions, view, today: '2026-12-01' });
    expect(result.text).toBe(text);
    expect(result.versions.checkedAt).toBe('2026-12-01');
    for (const [slug, source] of Object.entries(versions.servers))
      if (isKeptSource(source)) expect(result.versions.servers[slug], slug).toEqual(source);
    expect(result.notChecked).toHaveLength(11);
    expect(result.notChecked).toContain(
      'github-mcp-server (oci): kept 1.10.1 from https://github.com/github/github-mcp-server tag v1.10.1 (commit fcdd664099f9, 2026-08-20), read 2026-11-25',
    );
    expect(result.notChecked).toContain(
      'obsidian-mcp-server (pypi): kept 0.2.2 from https://pypi.org/rss/project/mcp-obsidian/releases.xml, read 2026-11-25',
    );
    // A remote-only record is not a record left unchecked: it has nothing to check.
    expect(result.notChecked.some((line) => line.startsWith('linear-mcp-server'))).toBe(false);
  });

  it('refuses to keep a source that no longer describes the record (a version edited by hand)', async () => {
    const edited = text.replace('"version": "0.23.1"', '"version": "0.24.0"');
    expect(edited).not.toBe(text);
    await expect(
      refreshVersions({ serversText: edited, previous: versions, view: async (p) => facts[p]!, today: '2026-12-01' }),
    ).rejects.toThrow(/mcp-atlassian-mcp-server: version 0\.24\.0 is not the recorded 0\.23\.1/);
    const unpinned = text.replace(/("identifier": "mcp-server-git",\n\s*)"version": "2026\.7\.10",\n\s*/, '$1');
    expect(unpinned).not.toBe(text);
    await expect(
      refreshVersions({ serversText: unpinned, previous: versions, view: async (p) => facts[p]!, today: '2026-12-01' }),
    ).rejects.toThrow(/git-mcp-server: package mcp-server-git version \(none\) is not the recorded 2026\.7\.10/);
  });

  it('refuses a PyPI or image version with no recorded source; without a version, such a record is listed as unchecked', async () => {
    const { servers: _all, ...rest } = versions;
    const noSources = { ...rest, servers: {} };
    await expect(
      refreshVersions({ serversText: text, previous: noSources, view: async (p) => facts[p]!, today: '2026-12-01' }),
    ).rejects.toThrow(/fetch-mcp-server: has a version that mcp-versions.json records no source for/);
    const { version: _drop, ...bare } = records['time-mcp-server']!;
    const packages = bare.packages!.map(({ version: _v, ...pkg }) => pkg);
    const unversioned = JSON.stringify({ 'time-mcp-server': { ...bare, packages } }, null, 2);
    const result = await refreshVersions({ serversText: unversioned, previous: noSources, today: '2026-12-01' });
    expect(result.text).toBe(unversioned);
    expect(result.versions.servers['time-mcp-server']).toEqual({
      source: 'none',
      reason:
        'Packaged on pypi and oci only, which cannot be reached from where the data is written: version not checked',
    });
    expect(result.notChecked).toEqual(['time-mcp-server (pypi and oci): no recorded version']);
  });

  it('writes no version the registry would refuse', async () => {
    await expect(
      refreshVersions({ serversText: text, view: async () => ({ version: 'latest' }), today: '2026-11-25' }),
    ).rejects.toThrow(/refuse its version: "latest" is reserved/);
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
