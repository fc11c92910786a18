// Bootstrap helpers for `npm start` and `npm test`: plain Node (they run before anything is installed).
import { execSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashTree } from './hashTree.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PNPM_VERSION = '12.21.0';

export function log(msg) {
  console.log(`\n▶ ${msg}`);
}

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, {
    cwd: ROOT,
    stdio: 'inherit',
    ...opts,
    env: { ...process.env, ...(opts.env ?? {}) },
  });
  if (r.status !== 0) {
    console.error(`✖ ${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal}`);
    process.exit(r.status ?? 1);
  }
}

function hasPnpm() {
  try {
    return execSync('pnpm --version', { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim()
      .startsWith('12.');
  } catch {
    return false;
  }
}

/** pnpm 12 from the npm registry (corepack's signature check fails here). */
export function ensurePnpm() {
  if (hasPnpm()) return;
  log(`installing pnpm ${PNPM_VERSION}`);
  const r = spawnSync('npm', ['install', '-g', `pnpm@${PNPM_VERSION}`], { stdio: 'inherit' });
  if (r.status !== 0 || !hasPnpm()) {
    console.error('✖ could not install pnpm globally; install it with: npm install -g pnpm@12');
    process.exit(1);
  }
}

/** Installs dependencies when node_modules is missing or older than the lockfile. */
export function ensureInstall() {
  const marker = join(ROOT, 'node_modules', '.modules.yaml');
  const lock = join(ROOT, 'pnpm-lock.yaml');
  if (
    existsSync(marker) &&
    statSync(marker).mtimeMs >= statSync(lock).mtimeMs &&
    existsSync(join(ROOT, 'api', 'node_modules'))
  )
    return;
  log('installing dependencies');
  run('pnpm', ['install', '--frozen-lockfile']);
}

/**
 * Builds a package with Vite when its sources changed since its last build: the whole folder without node_modules
 * and build output, the workspace folders it imports (`uses`), the lockfile and the shared compiler settings,
 * hashed into a stamp beside the output.
 */
function ensureViteBuild(pkg, filter, output, uses = []) {
  const stamp = join(ROOT, pkg, 'dist', '.source-hash');
  const inputs = [pkg, ...uses, 'pnpm-lock.yaml', 'tsconfig.base.json'].map((p) => join(ROOT, p));
  const hash = hashTree(inputs, { base: ROOT });
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash && existsSync(join(ROOT, pkg, 'dist', output))) return;
  log(`building ${pkg}`);
  run('pnpm', ['--filter', filter, 'build']);
  writeFileSync(stamp, hash);
}

/** The shell (its sources and the platform SDK inside its folder). */
export const ensureShellBuild = () => ensureViteBuild('shell', '@aitools/shell', join('server', 'entry-server.js'));

/** The operator console, which the server serves on its own port (docs/operations.md, "The console"); it imports
 *  the contracts and the platform's stylesheets. */
export const ensureConsoleBuild = () =>
  ensureViteBuild('console', '@aitools/console', 'index.html', ['contracts/src', 'shell/platform']);

/** Compiles the production server (api/dist, see api/build.mjs) when its sources or what it bundles changed. */
export function ensureApiBuild() {
  const stamp = join(ROOT, 'api', 'dist', '.source-hash');
  const inputs = [
    'api/src',
    'api/build.mjs',
    'api/package.json',
    'contracts/package.json',
    'contracts/src',
    'shell/platform',
    'pnpm-lock.yaml',
    'tsconfig.base.json',
  ].map((p) => join(ROOT, p));
  const hash = hashTree(inputs, { base: ROOT, skip: (p) => /\.test\.tsx?$/.test(p) });
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash && existsSync(join(ROOT, 'api', 'dist', 'main.js')))
    return;
  log('compiling the server');
  run('pnpm', ['--filter', '@aitools/api', 'build']);
  writeFileSync(stamp, hash);
}

/** Releases every remote whose sources changed since its active release (the first run releases all four). */
export function ensureReleases(env = {}) {
  log('releasing remotes (skipped when unchanged)');
  run('pnpm', ['--filter', '@aitools/api', 'exec', 'tsx', 'src/releases/cli.ts', 'release', 'all', '--if-changed'], {
    env,
  });
}
