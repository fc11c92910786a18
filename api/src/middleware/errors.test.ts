import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express, { type Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { loadConfig } from '../config';
import { openDatabase } from '../db/connection';
import { writeManifestAtomic } from '../releases/manifest';
import { errorHandler, errorStatus, HttpError, publicErrorMessage } from './errors';
import { createLogger } from './logger';

let app: Express;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'errors-test-'));
  const releasesDir = join(dir, 'releases');
  mkdirSync(join(releasesDir, 'legal', '1.0.0-r1', 'client'), { recursive: true });
  writeFileSync(join(releasesDir, 'legal', '1.0.0-r1', 'client', 'remoteEntry.js'), 'export {}');
  writeManifestAtomic(releasesDir, { version: 1, remotes: { legal: { active: '1.0.0-r1', history: [] } } });
  app = await createApp({ config: loadConfig({ NODE_ENV: 'test', RELEASES_DIR: releasesDir }), db: openDatabase(':memory:'), logger: createLogger('silent'), pages: false });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Nothing of the server's disk and nothing of what the client sent. */
function expectClean(body: string, ...echoes: string[]) {
  expect(body).not.toMatch(/ENOENT|stat |\/tmp|\/work|errors-test|node_modules/);
  for (const e of echoes) expect(body).not.toContain(e);
}

describe('error bodies', () => {
  it('a missing release file answers 404 without its path', async () => {
    const res = await request(app).get('/remotes/legal/1.0.0-r1/assets/missing-chunk.js');
    expect(res.status).toBe(404);
    expectClean(res.text, 'missing-chunk');
  });

  it('a static file error under express.static(fallthrough: false) says only "Not found"', async () => {
    const mini = express();
    mini.use('/assets', express.static(dir, { fallthrough: false }));
    mini.use(errorHandler);
    const res = await request(mini).get('/assets/nope/x.js');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: 'Not found' });
  });

  it.each(['/api/tools/%E0%A4%A', '/api/tools/%ZZ%3Cscript%3E', '/remotes/legal/%C0%AF/x.js'])('an undecodable URI (%s) answers 400 without echoing it', async (path) => {
    const res = await request(app).get(path);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: 'Bad request' });
  });

  it('/api keeps answering JSON, also for unknown paths and bodies in an unknown charset', async () => {
    const unknown = await request(app).get('/api/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.type).toBe('application/json');
    const charset = await request(app).post('/api/submissions').set('Content-Type', 'application/json; charset=evil-<b>').send('{}');
    expect(charset.status).toBe(415);
    expect(charset.body).toEqual({ success: false, error: 'Unsupported content type' });
  });

  it('only our own messages and fixed texts per status are ever sent', () => {
    expect(publicErrorMessage(new HttpError(400, 'Please correct the highlighted fields.'))).toBe('Please correct the highlighted fields.');
    expect(publicErrorMessage(Object.assign(new Error("ENOENT: no such file or directory, stat '/srv/x'"), { status: 404 }))).toBe('Not found');
    expect(publicErrorMessage(Object.assign(new Error("Failed to decode param '%E0'"), { status: 400 }))).toBe('Bad request');
    expect(publicErrorMessage(Object.assign(new Error('secret'), { status: 418 }))).toBe('Request failed');
    expect(publicErrorMessage(new Error('/srv/app/db.ts exploded'))).toBe('Internal server error');
    expect(errorStatus({ status: 200 })).toBe(500);
    expect(errorStatus({ status: '404' })).toBe(500);
  });
});
