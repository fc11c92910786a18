/**
 * The e2e suite: starts the production server once (fresh database, fresh release store), then runs every
 * spec with node's test runner, one file at a time (the specs share the server and one Chromium each).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSite } from './harness';
import { launchBrowser } from './browser';

const specsDir = join(import.meta.dirname, 'specs');
const only = process.argv.slice(2);
const specs = readdirSync(specsDir)
  .filter((f) => f.endsWith('.spec.ts'))
  .filter((f) => !only.length || only.some((o) => f.includes(o)))
  .map((f) => join(specsDir, f));

// Browsers differ in how they cache failed module fetches, and CI installs whatever Chromium Debian serves that day.
const probe = await launchBrowser();
console.log(`e2e browser: Chromium ${probe.version()}`);
await probe.close();

const site = await startSite();
let status: number;
try {
  const tap = join(tmpdir(), `e2e-${process.pid}.tap`);
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      '--test-concurrency=1',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      ...specs,
    ],
    {
      stdio: 'inherit',
      env: { ...process.env, ...site.env, BASE_URL: site.baseUrl, E2E_DIR: site.dir },
    },
  );
  status = r.status ?? 1;
  // For `npm test`'s closing line: the counts of node's test runner. Skipped counts every test and suite marked
  // SKIP or TODO: node's own "# skipped" leaves out a skipped suite (the cluster spec without Postgres) and its tests.
  // A test that ran out of its time is "cancelled" there, and failed here.
  if (process.env.E2E_SUMMARY) {
    const text = readFileSync(tap, 'utf8');
    const count = (k: string) => Number(new RegExp(`^# ${k} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    const skipped = text.match(/^\s*ok \d+ - .* # (SKIP|TODO)\b/gm)?.length ?? 0;
    writeFileSync(
      process.env.E2E_SUMMARY,
      JSON.stringify({ passed: count('pass'), failed: count('fail') + count('cancelled'), skipped }),
    );
  }
  rmSync(tap, { force: true });
} finally {
  await site.stop();
}
process.exit(status);
