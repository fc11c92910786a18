// npm test: every test — unit and component tests of each package (Vitest), the api's again on Postgres when a
// PostgreSQL server is installed (a throwaway cluster), then the Playwright e2e suite in Debian Chromium against the
// production build served as `npm start` serves it.
import './runtime.mjs'; // first: on an older Node it runs this script again on the project's Node
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ensureApiBuild, ensureConsoleBuild, ensureInstall, ensurePnpm, ensureShellBuild, log, ROOT } from './lib.mjs';
import { startPostgres } from './postgres.mjs';

ensurePnpm();
ensureInstall();

log('type-checking every package (strict)');
const typecheck = spawnSync('pnpm', ['-r', '--workspace-concurrency=1', 'typecheck'], { cwd: ROOT, stdio: 'inherit' });

log('linting (recommended rules and the boundaries between the deployables)');
const lint = spawnSync('pnpm', ['lint'], { cwd: ROOT, stdio: 'inherit' });
const lintRules = spawnSync(process.execPath, ['--test', '--test-reporter=dot', 'scripts/lint-boundaries.test.mjs'], {
  cwd: ROOT,
  stdio: 'inherit',
});

log('the bootstrap: the runtime (scripts/runtime.mjs) and the throwaway Postgres cluster (scripts/postgres.mjs)');
const postgresScript = spawnSync(
  process.execPath,
  ['--test', '--test-reporter=dot', 'scripts/runtime.test.mjs', 'scripts/postgres.test.mjs'],
  { cwd: ROOT, stdio: 'inherit' },
);

const packages = [
  'contracts',
  'shell/platform',
  'shell',
  'mfe-directory',
  'mfe-blog',
  'mfe-forms',
  'mfe-legal',
  'console',
  'api',
];
const reportDir = mkdtempSync(join(tmpdir(), 'vitest-'));
let passed = 0;
let failed = 0;
let skipped = 0;
const failedPackages = [];
const failedTests = []; // named again at the very end, where a CI log's tail shows them

/** One package's Vitest run, counted into the totals; `label` names it in the log and the summary. */
function unitTests(pkg, label = pkg, env = {}) {
  log(`unit tests: ${label}`);
  const out = join(reportDir, label.replace(/\W+/g, '-') + '.json');
  const r = spawnSync(
    'pnpm',
    [
      'exec',
      'vitest',
      'run',
      '--configLoader',
      'runner',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${out}`,
    ],
    {
      cwd: join(ROOT, pkg),
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'test', ...env },
    },
  );
  if (existsSync(out)) {
    const report = JSON.parse(readFileSync(out, 'utf8'));
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
    if (report.numTotalTests === 0) failedPackages.push(`${label} (no tests)`);
    for (const file of report.testResults)
      for (const test of file.assertionResults)
        if (test.status === 'failed')
          failedTests.push(`${label}: ${test.fullName}\n    ${(test.failureMessages[0] ?? '').split('\n')[0]}`);
  }
  if (r.status !== 0) failedPackages.push(label);
}

for (const pkg of packages) unitTests(pkg);

// The api's suites again on Postgres (a throwaway cluster), and the two-instance e2e on it below.
let postgres = null;
if (process.env.SKIP_POSTGRES) log('Postgres suites skipped (SKIP_POSTGRES)');
else {
  // A cluster that fails to start fails the run with its reason; the e2e suite still runs (its Postgres spec skips).
  postgres = await startPostgres({ log }).catch((err) => {
    console.error(`✖ ${err.message}`);
    failedPackages.push('postgres (did not start)');
    return undefined;
  });
  if (postgres) unitTests('api', 'api (postgres)', { TEST_DATABASE_URL: postgres.url });
  else if (postgres === null) {
    log('Postgres suites skipped: no PostgreSQL server installed (apt-get install postgresql)');
    if (process.env.REQUIRE_POSTGRES) failedPackages.push('postgres (not installed)');
  }
}
rmSync(reportDir, { recursive: true, force: true });
if (typecheck.status !== 0) failedPackages.push('typecheck');
if (lint.status !== 0 || lintRules.status !== 0) failedPackages.push('lint');
if (postgresScript.status !== 0) failedPackages.push('scripts/runtime.test.mjs, scripts/postgres.test.mjs');

let e2e = { passed: 0, failed: 0, skipped: 0 };
if (!process.env.SKIP_E2E) {
  ensureShellBuild();
  ensureConsoleBuild();
  ensureApiBuild();
  log('end-to-end tests in Chromium');
  const summary = join(tmpdir(), `e2e-summary-${process.pid}.json`);
  const r = spawnSync('pnpm', ['--filter', '@aitools/tests', 'e2e'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, E2E_SUMMARY: summary, ...(postgres ? { E2E_DATABASE_URL: postgres.adminUrl } : {}) },
  });
  if (existsSync(summary)) {
    e2e = JSON.parse(readFileSync(summary, 'utf8'));
    rmSync(summary, { force: true });
  }
  if (r.status !== 0) failedPackages.push('tests (e2e)');
}

await postgres?.stop();

console.log(
  `\nunit and component: ${passed} passed, ${failed} failed, ${skipped} skipped; ` +
    `e2e: ${e2e.passed} passed, ${e2e.failed} failed, ${e2e.skipped} skipped`,
);
console.log(`total: ${passed + e2e.passed} passed, ${failed + e2e.failed} failed, ${skipped + e2e.skipped} skipped`);
if (failedPackages.length) {
  for (const test of failedTests) console.error(`✖ ${test}`);
  console.error(`✖ failing: ${failedPackages.join(', ')}`);
  process.exit(1);
}
