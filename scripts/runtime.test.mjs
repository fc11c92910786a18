// scripts/runtime.mjs in a copy of the scripts folder whose .node-version names another Node: it runs the script
// again under the kept build, fetches one when none is kept, and fails in one line when the registry has none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPTS = dirname(fileURLToPath(import.meta.url));
const current = process.versions.node;

/** A project folder holding runtime.mjs, a script that imports it, and `.node-version` = `version`. */
function project(version) {
  const root = mkdtempSync(join(tmpdir(), 'runtime-'));
  mkdirSync(join(root, 'scripts'));
  copyFileSync(join(SCRIPTS, 'runtime.mjs'), join(root, 'scripts', 'runtime.mjs'));
  writeFileSync(
    join(root, 'scripts', 'main.mjs'),
    "import './runtime.mjs';\nconsole.log(`ran on ${process.version}`);\n",
  );
  writeFileSync(join(root, '.node-version'), `${version}\n`);
  return root;
}

/** Runs scripts/main.mjs of `root` on this Node; `path` replaces PATH (to hide or fake npm). */
function start(root, env = {}) {
  return spawnSync(process.execPath, [join(root, 'scripts', 'main.mjs')], {
    encoding: 'utf8',
    env: { ...process.env, AITOOLS_RUNTIME: '', npm_config_nodedir: '', ...env },
  });
}

test('on the wanted major (or newer) nothing is fetched and the script runs as it is', () => {
  const root = project(current);
  try {
    const r = start(root, { PATH: '/nonexistent' }); // no npm reachable: it must not be needed
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), `ran on v${current}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('on an older Node the kept build runs the script again, first on PATH and with its headers for node-gyp', () => {
  const root = project('999.1.2');
  const dir = join(root, '.runtime', `node-v999.1.2-${process.platform}-${process.arch}`);
  mkdirSync(join(dir, 'bin'), { recursive: true });
  // A stand-in for the registry's build: it names its version and reports how it was started.
  const fake = join(dir, 'bin', 'node');
  writeFileSync(
    fake,
    '#!/bin/sh\n[ "$1" = --version ] && { echo v999.1.2; exit 0; }\n' +
      'echo "args=$1"; echo "nodedir=$npm_config_nodedir"; echo "path=${PATH%%:*}"; exit 7\n',
  );
  chmodSync(fake, 0o755);
  try {
    const r = start(root, { PATH: '/nonexistent' }); // kept: npm is not asked
    assert.equal(r.status, 7, 'the exit status of the run under the kept build');
    const lines = r.stdout.trim().split('\n');
    assert.match(
      lines[0],
      /^▶ Node v\d+\.\d+\.\d+ is past end of life; running under Node v999\.1\.2 from the npm registry/,
    );
    assert.deepEqual(lines.slice(1), [
      `args=${join(root, 'scripts', 'main.mjs')}`,
      `nodedir=${dir}`,
      `path=${join(dir, 'bin')}`,
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a version the registry cannot give fails in one line that says what to do, not with a stack trace', () => {
  const root = project('999.1.2');
  const bin = mkdtempSync(join(tmpdir(), 'fake-npm-'));
  // npm as the registry answers for a package version it does not have.
  writeFileSync(
    join(bin, 'npm'),
    '#!/bin/sh\necho "npm error code ETARGET" >&2\necho "npm error notarget No matching version" >&2\nexit 1\n',
  );
  chmodSync(join(bin, 'npm'), 0o755);
  try {
    const r = start(root, { PATH: `${bin}:/usr/bin:/bin` });
    assert.equal(r.status, 1);
    assert.equal(r.stdout, '');
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(
      lines[0],
      /^✖ this project needs Node 999 \(this machine has v[\d.]+\), and node-\S+@999\.1\.2 could not be fetched from the npm registry \(npm error code ETARGET\)\. Install Node 999 LTS/,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(bin, { recursive: true, force: true });
  }
});
