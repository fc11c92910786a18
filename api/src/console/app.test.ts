/** The console's app: its browser app's files and pages, its refusals, and the instances list of the health page. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_ORIGIN, signedInPerson, startConsoleTest, type ConsoleTest } from '../../test/consoleHarness';
import { recentInstances, reportInstance } from './instances';

let t: ConsoleTest;
beforeAll(async () => {
  t = await startConsoleTest({}, (dir) => {
    const dist = join(dir, 'console-dist');
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Console</title><div id="root"></div>');
    writeFileSync(join(dist, 'assets', 'app-1234.js'), 'console.log(1)');
    return dist;
  });
});
afterAll(() => t.close());

describe('the console app', () => {
  it('answers index.html for any page path, never stored, and its hashed files for a year', async () => {
    for (const path of ['/', '/invite/abc', '/releases/blog']) {
      const page = await request(t.app.console).get(path);
      expect(page.status, path).toBe(200);
      expect(page.text).toContain('<title>Console</title>');
      expect(page.headers['cache-control']).toBe('no-store');
    }
    const asset = await request(t.app.console).get('/assets/app-1234.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toMatch(/immutable/);
    expect((await request(t.app.console).get('/assets/missing.js')).status).toBe(404);
  });

  it('answers JSON 404 for an unknown API path and 405 for a change of a page', async () => {
    const { browser } = await signedInPerson(t, 'Walker', [{ role: 'viewer' }]);
    const api = await browser.get('/api/nothing-here');
    expect(api.status).toBe(404);
    expect(api.body).toMatchObject({ success: false });
    const post = await request(t.app.console).post('/invite/abc').set('Origin', CONSOLE_ORIGIN).send({});
    expect(post.status).toBe(405);
  });

  it('lists the instances that reported recently', async () => {
    const instance = reportInstance(t.db, () => 'ok', console);
    await instance.first;
    instance.stop();
    expect((await recentInstances(t.db)).map((i) => i.id)).toContain(instance.id);
    expect(await recentInstances(t.db, Date.now() + 10 * 60_000)).toEqual([]);
  });
});
