/**
 * Serves the production build the way `npm start` does (the compiled server, api/dist/main.js, over the shell build and released
 * remotes), but on a free port with its own database and release store, so tests never touch an operator's data.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  createWriteStream,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { consoleOriginFile } from '../../api/src/console/consoleOrigin';
import { isPostgresUrl } from '../../api/src/db/connection';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
export const API_DIR = join(REPO_ROOT, 'api');
/** The production server, as `npm start` runs it (api/package.json's serve script, with its heap bounds: docs/performance.md,
 *  Memory; compiled by api/build.mjs). */
export const SERVER = ['--max-semi-space-size=4', '--max-old-space-size=160', '--enable-source-maps', 'dist/main.js'];
/** The allocator's settings of that script (GLIBC_TUNABLES: two arenas, memory given back above 128 kB; docs/performance.md,
 *  Memory), read from it so the tests run the server as it is served. */
export const SERVER_ENV: Record<string, string> = {
  GLIBC_TUNABLES: /GLIBC_TUNABLES=\$\{GLIBC_TUNABLES-([^}]+)\}/.exec(
    (JSON.parse(readFileSync(join(API_DIR, 'package.json'), 'utf8')) as { scripts: { serve: string } }).scripts.serve,
  )![1]!,
};

/** Compiles the server and builds the console when their sources changed since the last build (scripts/lib.mjs, as
 *  `npm start` does). */
function ensureServerBuild(): void {
  const r = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "import('./scripts/lib.mjs').then((m) => { m.ensureApiBuild(); m.ensureConsoleBuild(); })",
    ],
    { cwd: REPO_ROOT, stdio: 'inherit' },
  );
  if (r.status !== 0) throw new Error('the server did not compile (pnpm --filter @aitools/api build)');
}

/**
 * An e2e run's log folder (run.ts sets E2E_LOG_DIR): every server the run starts writes its whole output there, at
 * info level (every request line), and the run notes there each secret it makes. At the end run.ts reads every log
 * for every secret (docs/testing.md, Secrets in logs). Without it (a server started by hand), output goes to the
 * terminal as before.
 */
const LOG_DIR = process.env.E2E_LOG_DIR;
export const SECRETS_FILE = 'secrets.jsonl';

/** Notes a secret the run made (an invitation token, a preview signature, a session id...) for run.ts's log scan. */
export function rememberSecret(kind: string, value: string): void {
  if (LOG_DIR && value) appendFileSync(join(LOG_DIR, SECRETS_FILE), `${JSON.stringify({ kind, value })}\n`);
}

/** Notes every secret a command printed: release tokens, invitation and recovery links, preview links. */
export function rememberSecretsIn(text: string): void {
  for (const m of text.matchAll(/\baitr_[\w-]+/g)) rememberSecret('release token', m[0]);
  for (const m of text.matchAll(/\/invite\/([\w-]+)/g)) rememberSecret('invitation token', m[1]!);
  for (const m of text.matchAll(/[?&]sig=([\w-]+)/g)) rememberSecret('preview signature', m[1]!);
}

const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };

/**
 * A server's output: with a log folder (see LOG_DIR), all of it at info level into a file of the folder, and the
 * lines at or above the level the test asked for (LOG_LEVEL, warn unless told) echoed to the terminal; without
 * one, at that level to the terminal. Returns the env to start the server with.
 */
function serverOutput(env: Record<string, string>): {
  env: Record<string, string>;
  stdio: ['ignore', 'pipe', 'pipe'] | ['ignore', 'inherit', 'inherit'];
  attach(child: ChildProcess): void;
} {
  const asked = env.LOG_LEVEL ?? 'warn';
  if (env.METRICS_TOKEN) rememberSecret('metrics token', env.METRICS_TOKEN);
  if (!LOG_DIR) return { env: { ...env, LOG_LEVEL: asked }, stdio: ['ignore', 'inherit', 'inherit'], attach() {} };
  const file = createWriteStream(join(LOG_DIR, `server-${env.PORT}-${Date.now()}.log`));
  const echoFrom = LEVELS[asked] ?? Infinity;
  const copy = (from: Readable | null) => {
    if (!from) return;
    createInterface({ input: from }).on('line', (line) => {
      file.write(`${line}\n`);
      const level = /^\{"level":(\d+)/.exec(line)?.[1];
      if (!level || Number(level) >= echoFrom) process.stderr.write(`${line}\n`);
    });
  };
  return {
    env: { ...env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
    attach(child) {
      copy(child.stdout);
      copy(child.stderr);
      child.once('close', () => file.end());
    },
  };
}

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
    srv.on('error', rej);
  });
}

export interface Site {
  baseUrl: string;
  /** The operator console's origin (startSite with `console: true`), e.g. http://localhost:<port>. */
  consoleUrl?: string;
  /** The server process (the benchmarks read its CPU time). */
  pid: number;
  env: Record<string, string>;
  dir: string;
  stop(): Promise<void>;
}

/** Runs the release CLI against the test store (release, rollback, list). */
export function releaseCli(
  env: Record<string, string>,
  args: string[],
): { status: number; stdout: string; stderr: string } {
  const r = spawnSync('pnpm', ['exec', 'tsx', 'src/releases/cli.ts', ...args], {
    cwd: API_DIR,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  rememberSecretsIn(r.stdout);
  return { status: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

/** The release CLI without blocking this process: a test that waits synchronously stalls its own HTTP client, whose
 *  idle keep-alive sockets the server closes meanwhile ("other side closed" on the next request). */
export function runReleaseCli(
  env: Record<string, string>,
  args: string[],
): Promise<{ status: number; stdout: string; stderr: string }> {
  return runApiScript(env, 'src/releases/cli.ts', args);
}

/** One of the api package's operator commands (releases, moderation), run without blocking this process. */
export function runApiScript(
  env: Record<string, string>,
  script: string,
  args: string[],
): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: API_DIR,
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      rememberSecretsIn(stdout);
      resolve({ status: code ?? 1, stdout, stderr });
    });
  });
}

/**
 * The server's own node process (not a pnpm wrapper), so a SIGKILL hits the process that holds the database; resolves
 * once /api/health answers.
 */
/** The settings each server started here was given, for what it leaves behind (leftoversOf). */
const settingsOf = new WeakMap<ChildProcess, Record<string, string>>();

/** Removes what a stopped server wrote outside its temp folder: on Postgres, the console origin it recorded in
 *  api/var (console/consoleOrigin.ts), keyed by a database that goes with the run. */
function removeLeftovers(env: Record<string, string>): void {
  const database = env.DATABASE_URL ?? process.env.DATABASE_URL;
  if (database && isPostgresUrl(database)) rmSync(consoleOriginFile(database), { force: true });
}

export async function startServerProcess(env: Record<string, string>): Promise<ChildProcess> {
  const output = serverOutput(env);
  const child = spawn(process.execPath, SERVER, {
    cwd: API_DIR,
    env: { ...SERVER_ENV, ...process.env, ...output.env },
    stdio: output.stdio,
  });
  output.attach(child);
  settingsOf.set(child, env);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error('the server exited during start');
    try {
      if ((await fetch(`http://localhost:${env.PORT}/api/health`)).ok) return child;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error('the server did not start within 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Stops a server process (SIGTERM), waits for it to exit and removes what it left outside its folder (one killed
 *  before is cleaned up too). */
export async function stopServerProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(null) : child.once('exit', r)));
  }
  removeLeftovers(settingsOf.get(child) ?? {});
}

/** `releasesDir`: serve an existing release store (nothing is released, and it is not removed on stop).
 *  `quiet`: the server's output is discarded (the benchmark keeps production logging on, off the terminal). */
export async function startSite(
  opts: {
    releaseAll?: boolean;
    releasesDir?: string;
    extraEnv?: Record<string, string>;
    quiet?: boolean;
    /** Also serve the operator console, on its own port (its origin is `consoleUrl`). */
    console?: boolean;
  } = {},
): Promise<Site> {
  const dir = mkdtempSync(join(tmpdir(), 'aitools-e2e-'));
  const port = await freePort();
  const consolePort = opts.console ? await freePort() : undefined;
  const env: Record<string, string> = {
    PORT: String(port),
    DATABASE_PATH: join(dir, 'site.sqlite'),
    RELEASES_DIR: opts.releasesDir ?? join(dir, 'releases'),
    SITE_ORIGIN: `http://localhost:${port}`,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    WRITE_RATE_LIMIT: '1000',
    // The MCP spec's conformance run, CLI and client share one address; its own site checks the limit.
    MCP_RATE_LIMIT: '1000',
    // Every spec's browser is one address: its searches and pages are not a flood (bounds.spec sets its own limit).
    READ_RATE_LIMIT: '100000',
    // A loaded 2-core CI machine can take seconds over a cold render; the specs check pages, not the budget
    // (faults.spec sets its own).
    RENDER_BUDGET_MS: '15000',
    // The jobs that reach outside (npm, the seeded remotes) run once a year here: this machine has no network, and a
    // run's writes would move the data version under specs that count cache entries. Specs of jobs set their own.
    ...Object.fromEntries(
      ['JOB_VERSIONS_EVERY', 'JOB_HEALTH_EVERY', 'JOB_INSPECT_REMOTES_EVERY'].map((k) => [k, '0 0 1 1 *']),
    ),
    ...(consolePort ? { CONSOLE_PORT: String(consolePort), CONSOLE_ORIGIN: `http://localhost:${consolePort}` } : {}),
    ...opts.extraEnv,
  };
  if (opts.releaseAll !== false && !opts.releasesDir) {
    const r = releaseCli(env, ['release', 'all']);
    if (r.status !== 0) throw new Error(`release failed:\n${r.stdout}\n${r.stderr}`);
  }
  ensureServerBuild();
  const output = opts.quiet ? null : serverOutput(env);
  const child: ChildProcess = spawn(process.execPath, SERVER, {
    cwd: API_DIR,
    env: { ...SERVER_ENV, ...process.env, ...(output?.env ?? env) },
    stdio: output?.stdio ?? ['ignore', 'ignore', 'ignore'],
  });
  output?.attach(child);
  const baseUrl = `http://localhost:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (child.exitCode !== null) throw new Error('the server exited during start');
    if (Date.now() > deadline) throw new Error('the server did not start within 60 s');
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    baseUrl,
    ...(consolePort ? { consoleUrl: `http://localhost:${consolePort}` } : {}),
    pid: child.pid!,
    env,
    dir,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
      rmSync(dir, { recursive: true, force: true });
      removeLeftovers(env);
    },
  };
}

/**
 * A team's own checkout of one remote package (copied beside the repository's tsconfig, its node_modules linked),
 * with `from` replaced by `to` in its source files (`files`; tests excepted): a build that visibly differs.
 */
export function teamCheckout(pkg: string, from: string, to: string, files = /\.tsx?$/): string {
  const root = mkdtempSync(join(tmpdir(), `${pkg}-checkout-`));
  cpSync(join(REPO_ROOT, 'tsconfig.base.json'), join(root, 'tsconfig.base.json'));
  const dir = join(root, pkg);
  const src = join(REPO_ROOT, pkg);
  for (const f of readdirSync(src)) {
    if (f === 'node_modules' || f === 'dist') continue;
    cpSync(join(src, f), join(dir, f), { recursive: true });
  }
  symlinkSync(join(src, 'node_modules'), join(dir, 'node_modules'));
  let changed = 0;
  const edit = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) edit(p);
      else if (files.test(name) && !name.includes('.test.')) {
        const text = readFileSync(p, 'utf8');
        if (text.includes(from)) {
          writeFileSync(p, text.split(from).join(to));
          changed++;
        }
      }
    }
  };
  edit(join(dir, 'src'));
  if (!changed) throw new Error(`${pkg}'s sources do not contain ${JSON.stringify(from)}`);
  return dir;
}
