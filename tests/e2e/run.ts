/**
 * The e2e suite: starts the production server once (fresh database, fresh release store), then runs every
 * spec with node's test runner, one file at a time (the specs share the server and one Chromium each).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser } from './browser';

// Every server of the run logs here, and every secret the run makes is noted here (harness.ts): set before the
// harness is loaded, since it reads the folder once.
const logDir = mkdtempSync(join(tmpdir(), 'aitools-e2e-logs-'));
process.env.E2E_LOG_DIR = logDir;
const { SECRETS_FILE, startSite } = await import('./harness');

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

// What the run's servers write into the checkout: on Postgres, each console's origin in api/var
// (console/consoleOrigin.ts), removed by the harness when the server stops. The run fails if one stays.
const VAR_DIR = join(import.meta.dirname, '..', '..', 'api', 'var');
const consoleOrigins = () =>
  existsSync(VAR_DIR) ? readdirSync(VAR_DIR).filter((f) => f.startsWith('console-origin-')) : [];
const originsBefore = new Set(consoleOrigins());

const site = await startSite();
let status: number;
try {
  const tap = join(tmpdir(), `e2e-${process.pid}.tap`);
  // Not spawnSync: this process reads the shared server's output into the run's log folder, and a blocked reader
  // would leave the server's pipe full.
  const child = spawn(
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
  status = await new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
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
const leftovers = consoleOrigins().filter((f) => !originsBefore.has(f));
if (leftovers.length) {
  console.error(`the run's servers left ${leftovers.join(', ')} in api/var`);
  status = 1;
}
if (secretsStayedOutOfLogs()) rmSync(logDir, { recursive: true, force: true });
else {
  console.error(`the logs are kept in ${logDir}`);
  status = 1;
}
process.exit(status);

/**
 * Reads the whole output of every server the run started for every secret the run made (invitation and recovery
 * tokens, preview signatures, release tokens, session ids, metrics tokens): none may appear (docs/testing.md).
 */
function secretsStayedOutOfLogs(): boolean {
  const secretsPath = join(logDir, SECRETS_FILE);
  const secrets = readdirSync(logDir).includes(SECRETS_FILE)
    ? readFileSync(secretsPath, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { kind: string; value: string })
    : [];
  const logs = readdirSync(logDir).filter((f) => f.endsWith('.log'));
  let lines = 0;
  const found: string[] = [];
  for (const file of logs) {
    const text = readFileSync(join(logDir, file), 'utf8');
    lines += text.split('\n').length - 1;
    for (const { kind, value } of secrets) if (text.includes(value)) found.push(`${kind} in ${file}`);
  }
  const kinds = [...new Set(secrets.map((s) => s.kind))].sort().join(', ') || 'none';
  console.log(
    `secrets in logs: ${secrets.length} secrets made by the run (${kinds}) looked for in ${lines} lines of ${logs.length} server logs: ${found.length} found`,
  );
  for (const f of [...new Set(found)]) console.error(`  a ${f}`);
  return found.length === 0;
}
