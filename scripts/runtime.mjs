// The runtime every command runs on: the Node LTS named in .node-version (docs/dependencies.md, "Runtime").
// Imported first by start.mjs, build.mjs, test.mjs and withRuntime.mjs. Under an older Node it takes the official
// build of that version from the npm registry (the package node-<platform>-<arch>, which carries bin/node and the
// headers in include/node) into .runtime/, and runs the same command again under it, with that Node first on PATH
// and its headers given to node-gyp, so native addons build for it. Plain Node, no dependencies: it runs before
// anything is installed, on any Node from 18 up.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { delimiter, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const NODE_VERSION = readFileSync(join(ROOT, '.node-version'), 'utf8').trim();
const wantedMajor = Number(NODE_VERSION.split('.')[0]);
const currentMajor = Number(process.versions.node.split('.')[0]);

/** Where the registry's build of NODE_VERSION is kept, per platform (git-ignored). */
const runtimeDir = join(ROOT, '.runtime', `node-v${NODE_VERSION}-${process.platform}-${process.arch}`);

function fail(message) {
  console.error(`✖ ${message}`);
  process.exit(1);
}

/** True when `bin` runs and says it is NODE_VERSION. */
function runs(bin) {
  if (!existsSync(bin)) return false;
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() === `v${NODE_VERSION}`;
}

/** npm pack (integrity-checked against the registry) and unpack into runtimeDir; a half-done unpack is never used. */
function fetchRuntime() {
  const pkg = `node-${process.platform}-${process.arch}@${NODE_VERSION}`;
  const partial = `${runtimeDir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const pack = spawnSync('npm', ['pack', pkg, '--pack-destination', partial, '--silent'], { encoding: 'utf8' });
  const tarball = pack.status === 0 ? pack.stdout.trim().split('\n').pop() : '';
  if (!tarball) {
    rmSync(partial, { recursive: true, force: true });
    const reason = (pack.stderr || pack.error?.message || 'npm pack failed').trim().split('\n')[0];
    fail(
      `this project needs Node ${wantedMajor} (this machine has ${process.version}), and ${pkg} could not be ` +
        `fetched from the npm registry (${reason}). Install Node ${wantedMajor} LTS and run the command again.`,
    );
  }
  const untar = spawnSync('tar', ['-xzf', join(partial, tarball), '-C', partial, '--strip-components=1']);
  rmSync(join(partial, tarball), { force: true });
  if (untar.status !== 0) fail(`could not unpack ${pkg} into ${relative(ROOT, partial)} (is tar installed?)`);
  rmSync(runtimeDir, { recursive: true, force: true });
  renameSync(partial, runtimeDir);
}

if (currentMajor < wantedMajor) {
  const bin = join(runtimeDir, 'bin', 'node');
  if (process.env.AITOOLS_RUNTIME) fail(`${bin} was started but reports ${process.version}`);
  if (!runs(bin)) fetchRuntime();
  if (!runs(bin)) fail(`${relative(ROOT, bin)} does not run on this machine`);
  console.log(
    `▶ Node ${process.version} is past end of life; running under Node v${NODE_VERSION} from the npm registry ` +
      `(${relative(ROOT, runtimeDir)})`,
  );
  const r = spawnSync(bin, process.argv.slice(1), {
    stdio: 'inherit',
    env: {
      ...process.env,
      AITOOLS_RUNTIME: bin,
      PATH: `${dirname(bin)}${delimiter}${process.env.PATH ?? ''}`,
      npm_config_nodedir: runtimeDir,
    },
  });
  process.exit(r.status ?? 1);
}
