/**
 * The "before" column: an earlier commit of this repository, built once the way its own `npm run build` does and
 * served by its own harness (its own server, temp database and release store) on a free port.
 *
 * The build is cached under the OS temp dir, keyed by the commit: a git worktree is checked out there, installed
 * and built, then unregistered from git (the files stay as a plain tree), so a second run starts the server at once
 * and `git worktree list` stays clean.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT, type Site } from '../e2e/harness';

/**
 * The first commit on Node 24 (docs/performance.md, "Before and after"). Earlier commits need Node 20 (better-sqlite3
 * 12 crashes on 24): serve such a build on Node 20 yourself and give it with --baseline-url.
 */
export const DEFAULT_BASELINE = '3ab1df8';

/** A commit built here, a running site given by its address (`--baseline-url`), or why there is none. */
export type Baseline =
  { ref: string; commit: string; tree: string } | { ref: string; url: string } | { ref: string; reason: string };

function sh(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): { ok: boolean; out: string } {
  const r = spawnSync(cmd, args, {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { ok: r.status === 0, out: `${r.stdout ?? ''}${r.stderr ?? ''}`.trim() };
}

export function cacheDirFor(commit: string): string {
  return join(tmpdir(), `aitools-bench-baseline-${commit.slice(0, 12)}`);
}

/** Checks out, installs and builds `commit` into `tree`; throws with the failing step's output. */
function build(commit: string, tree: string, log: (line: string) => void): void {
  const step = (what: string, cmd: string, args: string[], cwd: string, env?: Record<string, string>) => {
    log(`baseline: ${what}`);
    const r = sh(cmd, args, cwd, env);
    if (!r.ok) throw new Error(`${what} failed:\n${r.out.split('\n').slice(-20).join('\n')}`);
  };
  step('git worktree add', 'git', ['worktree', 'add', '--detach', tree, commit], REPO_ROOT);
  try {
    step('pnpm install', 'pnpm', ['install', '--frozen-lockfile', '--prefer-offline'], tree);
    // Its own build script: the shell, then every remote released into its own api/var/releases.
    step('npm run build', 'node', ['scripts/build.mjs'], tree);
  } finally {
    // Unregister the worktree; the built files stay as the cache.
    rmSync(join(tree, '.git'), { force: true });
    sh('git', ['worktree', 'prune'], REPO_ROOT);
  }
}

/** Builds `ref` (or reuses its cached build); a reason instead when it cannot (no such commit, build failed). */
export function prepareBaseline(ref: string, log: (line: string) => void): Baseline {
  const rev = sh('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], REPO_ROOT);
  if (!rev.ok) return { ref, reason: `no commit ${ref} in this checkout's history` };
  const commit = rev.out;
  const cache = cacheDirFor(commit);
  const tree = join(cache, 'tree');
  const stamp = join(cache, 'built');
  if (!existsSync(stamp)) {
    rmSync(cache, { recursive: true, force: true });
    mkdirSync(cache, { recursive: true });
    try {
      build(commit, tree, log);
    } catch (err) {
      rmSync(cache, { recursive: true, force: true });
      return { ref, reason: (err as Error).message };
    }
    writeFileSync(stamp, `${commit}\n`);
  } else log(`baseline: cached build of ${commit.slice(0, 7)} in ${cache}`);
  // Code ready is the same mark on both sides: <html data-route-ready="/path"> (shell/src/remotes/RouteReady.tsx).
  if (!sh('grep', ['-rqs', 'dataset.routeReady', join(tree, 'shell', 'src')], tree).ok)
    return { ref, reason: `${commit.slice(0, 7)} does not set data-route-ready` };
  return { ref, commit, tree };
}

/** Serves a prepared baseline with its own harness (its own api/src/main.ts, temp database, its built releases), at
 *  the production log level as this build is served. */
export async function startBaselineSite(tree: string, extraEnv: Record<string, string> = {}): Promise<Site> {
  const harness = (await import(
    pathToFileURL(join(tree, 'tests', 'e2e', 'harness.ts')).href
  )) as typeof import('../e2e/harness');
  // The same log level as this build's server (site.ts): every answer is logged, out of the terminal.
  return harness.startSite({
    releasesDir: join(tree, 'api', 'var', 'releases'),
    extraEnv: { LOG_LEVEL: 'info', ...extraEnv },
    quiet: true,
  });
}
