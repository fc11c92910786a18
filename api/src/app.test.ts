import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Express } from 'express';
import { createApp } from './app';
import { loadConfig } from './config';
import { openTestDatabase } from '../test/testDatabase';
import { seed } from './seed';
import { createLogger } from './middleware/logger';
import { writeManifestAtomic } from './releases/manifestFile';
import { CONTRACT_VERSION } from '@aitools/platform/contract';

let app: Express;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'app-test-'));
  const releasesDir = join(dir, 'releases');
  const client = join(releasesDir, 'legal', '1.0.0-r1', 'client');
  mkdirSync(client, { recursive: true });
  writeFileSync(
    join(client, 'remoteEntry.js'),
    'const p={"./Privacy":()=>import("/remotes/legal/1.0.0-r1/__federation_expose_Privacy-x.js")};export {p}',
  );
  writeFileSync(join(client, '__federation_expose_Privacy-x.js'), 'export default 1');
  mkdirSync(join(releasesDir, 'legal', '1.0.0-r1', 'server'));
  writeFileSync(
    join(releasesDir, 'legal', '1.0.0-r1', 'server', 'entry.mjs'),
    'export default { remote: "legal", routes: {} }',
  );
  const meta = {
    id: '1.0.0-r1',
    remote: 'legal',
    version: '1.0.0',
    builtAt: '2026-11-23T00:00:00Z',
    sourceHash: 'x',
    shared: {},
    css: ['style-x.css'],
    contractVersion: CONTRACT_VERSION,
  };
  writeFileSync(join(releasesDir, 'legal', '1.0.0-r1', 'release.json'), JSON.stringify(meta));
  writeManifestAtomic(releasesDir, { version: 1, remotes: { legal: { active: '1.0.0-r1', history: [] } } });
  const config = loadConfig({ NODE_ENV: 'test', RELEASES_DIR: releasesDir });
  const db = await openTestDatabase();
  await seed(db);
  app = await createApp({ config, db, logger: createLogger('silent'), pages: false });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('server basics', () => {
  it('reports health: degraded (still 200) while remotes are not served from their active release', async () => {
    const res = await request(app).get('/api/health');
    expect(res.status).toBe(200);
    // Only legal is released in this store.
    expect(res.body).toEqual({
      status: 'degraded',
      manifest: { ok: true, servingFrom: 'file' },
      remotes: Object.fromEntries(
        ['directory', 'blog', 'forms'].map((r) => [r, { active: null, served: null, problem: 'no release is active' }]),
      ),
    });
  });

  it('keeps serving the last good manifest when the file goes bad, and says so on /api/health', async () => {
    const file = join(dir, 'releases', 'manifest.json');
    const good = readFileSync(file, 'utf8');
    writeFileSync(file, good.slice(0, 30));
    try {
      const health = await request(app).get('/api/health');
      expect(health.status).toBe(200);
      expect(health.body.manifest).toEqual({
        ok: false,
        problem: 'not valid JSON (truncated or damaged)',
        servingFrom: 'last-good',
      });
      const remotes = await request(app).get('/remotes.json');
      expect(remotes.status).toBe(200);
      expect(remotes.body.legal.id).toBe('1.0.0-r1');
      expect((await request(app).get('/remotes/legal/1.0.0-r1/remoteEntry.js')).status).toBe(200);
    } finally {
      writeFileSync(file, good);
    }
    expect((await request(app).get('/api/health')).body.manifest).toEqual({ ok: true, servingFrom: 'file' });
  });

  it('sends security headers, including a CSP the same for every response (no nonce: pages can be cached)', async () => {
    const a = await request(app).get('/api/health');
    const b = await request(app).get('/api/health');
    expect(a.headers['x-content-type-options']).toBe('nosniff');
    expect(a.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(a.headers['x-powered-by']).toBeUndefined();
    expect(a.headers['content-security-policy']).not.toContain('nonce-');
    expect(a.headers['content-security-policy']).toBe(b.headers['content-security-policy']);
    expect(a.headers['content-security-policy']).toContain("script-src 'self'");
    expect(a.headers['content-security-policy']).toContain("object-src 'none'");
  });

  it("sends a module or stylesheet only the headers that act on it (a document's policies do nothing there)", async () => {
    const code = await request(app).get('/remotes/legal/1.0.0-r1/remoteEntry.js');
    expect(code.status).toBe(200);
    expect(code.headers['x-content-type-options']).toBe('nosniff');
    expect(code.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(code.headers['strict-transport-security']).toMatch(/max-age=/);
    expect(code.headers['referrer-policy']).toBe('no-referrer');
    for (const documentOnly of [
      'content-security-policy',
      'x-frame-options',
      'cross-origin-opener-policy',
      'origin-agent-cluster',
    ])
      expect(code.headers[documentOnly], documentOnly).toBeUndefined();
    // Anything else keeps the whole set: an SVG or an HTML file opened on its own is a document.
    const other = await request(app).get('/remotes/legal/1.0.0-r1/missing.svg');
    expect(other.headers['content-security-policy']).toContain("script-src 'self'");
    expect(other.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('compresses responses for clients that accept it', async () => {
    const res = await request(app).get('/api/tools').set('Accept-Encoding', 'gzip');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await request(app).get('/api/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: 'Not found' });
  });

  it('serves the manifest uncached, with entry and stylesheet addresses of the active release', async () => {
    const res = await request(app).get('/remotes.json');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      legal: {
        id: '1.0.0-r1',
        entry: '/remotes/legal/1.0.0-r1/remoteEntry.js',
        css: ['/remotes/legal/1.0.0-r1/style-x.css'],
      },
    });
  });

  it('serves release files with long immutable caching, and 404s for unknown remotes, releases and files', async () => {
    const ok = await request(app).get('/remotes/legal/1.0.0-r1/remoteEntry.js');
    expect(ok.status).toBe(200);
    expect(ok.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // Not found, and not kept by any cache (an instance may fetch a file its copy lacks at the next request).
    for (const path of [
      '/remotes/legal/9.9.9/remoteEntry.js',
      '/remotes/payments/1.0.0-r1/remoteEntry.js',
      '/remotes/legal/1.0.0-r1/missing.js',
      '/remotes/legal/..%2f..%2fetc/passwd',
      '/remotes/legal/../1.0.0-r1/remoteEntry.js',
      '/remotes/legal/..%2e/client/remoteEntry.js',
    ]) {
      const res = await request(app).get(path);
      expect([res.status, res.headers['cache-control']], path).toEqual([404, 'no-store']);
    }
  });

  it('serves a release under a retry address, with the entry pointing its chunks at that address', async () => {
    const entry = await request(app).get('/remotes/legal/1.0.0-r1/retry/2-abc/remoteEntry.js');
    expect(entry.status).toBe(200);
    expect(entry.headers['content-type']).toMatch(/javascript/);
    expect(entry.text).toContain('import("/remotes/legal/1.0.0-r1/retry/2-abc/__federation_expose_Privacy-x.js")');
    expect(entry.text).not.toContain('"/remotes/legal/1.0.0-r1/__federation');
    const chunk = await request(app).get('/remotes/legal/1.0.0-r1/retry/2-abc/__federation_expose_Privacy-x.js');
    expect(chunk.status).toBe(200);
    expect(chunk.text).toBe('export default 1');
    expect((await request(app).get('/remotes/legal/1.0.0-r1/retry/2-abc/missing.js')).status).toBe(404);
    expect([403, 404]).toContain(
      (await request(app).get('/remotes/legal/1.0.0-r1/retry/../../x/remoteEntry.js')).status,
    );
    expect([403, 404]).toContain(
      (await request(app).get('/remotes/legal/1.0.0-r1/retry/a%2f..%2f/remoteEntry.js')).status,
    );
  });
});
