/**
 * The serving process runs on the Node that .node-version names (docs/dependencies.md, "Runtime"), whatever Node the
 * machine came with: `npm test` and `npm start` run everything on it (scripts/runtime.mjs). Read from the server's
 * own report, prom-client's nodejs_version_info on /metrics.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, startSite, type Site } from '../harness';

const TOKEN = 'runtime-spec-metrics';
let site: Site;

before(async () => {
  site = await startSite({ releasesDir: process.env.RELEASES_DIR!, extraEnv: { METRICS_TOKEN: TOKEN } });
});
after(() => site.stop());

it('the server runs on the Node named in .node-version', async () => {
  const wanted = `v${readFileSync(join(REPO_ROOT, '.node-version'), 'utf8').trim()}`;
  const res = await fetch(`${site.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  assert.equal(res.status, 200);
  const line = (await res.text()).split('\n').find((l) => l.startsWith('nodejs_version_info{'));
  assert.ok(line, '/metrics reports nodejs_version_info');
  assert.equal(/version="(v[\d.]+)"/.exec(line)?.[1], wanted);
});
