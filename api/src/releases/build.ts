/**
 * Building a remote for its release address, and the checks every release passes before it is stored (built here
 * or uploaded). Reads and writes only the folder it is given; storing is releaseStore.ts's.
 */
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_ROOT, REPO_ROOT, remotePackageDir, SHARED_RESOLVE_PARENT } from '../paths';
import { installedSharedVersions, SHARED_PACKAGES } from '@aitools/platform/shared';
import { CONTRACT_VERSION } from '@aitools/platform/contract';
import { sharedRangeProblems } from './compat';
import { CHECKED_FILES, contractProblem, fileDigest } from './health';
import { type ReleaseDraft, type ReleaseMeta } from './manifest';
import { remoteBaseUrl, SERVER_ENTRY_FILE, REMOTE_ENTRY_FILE, PRELOAD_MANIFEST_FILE } from './layout';
import { assertRemote, ReleaseError } from './refusal';
import { gitCommit, releaseSource, workspaceRoot } from './sourceHash';

/** Where a remote's sources are (tests point them at fixtures). */
export interface BuildSource {
  /** The remote's package folder (defaults to mfe-<remote>); tests point it at fixtures. */
  packageDir?: string;
  /** The checkout holding the platform, contracts and lockfile the build bundles (defaults to the package's workspace). */
  repoRoot?: string;
  log?: (line: string) => void;
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/** The versions of the shared packages the shell runs with (what it will give a remote at run time). */
export function shellSharedVersions(): Record<string, string> {
  // Not installed: left out, and the range check reports it.
  return installedSharedVersions(SHARED_RESOLVE_PARENT);
}

/** "<version>-<UTC time>-<source digest>": tells which version and which build. */
export function makeReleaseId(version: string, hash: string, now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${version}-${stamp}-${hash.slice(0, 8)}`;
}
function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): void {
  const r = spawnSync(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new ReleaseError(`${cmd} ${args.join(' ')} failed in ${cwd}`);
}

/** The modules the browser build exposes (the build helper lists them in client/preload.json). */
function exposedModules(clientDir: string): string[] {
  const file = join(clientDir, PRELOAD_MANIFEST_FILE);
  if (!existsSync(file)) return [];
  return Object.keys(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>);
}

/** A remote's package and what its next release would be: read before building (and before skipping a build). */
export function planRelease(remote: string, opts: BuildSource) {
  const pkgDir = opts.packageDir ?? remotePackageDir(remote);
  const pkg = readJson<{ version: string; dependencies: Record<string, string> }>(join(pkgDir, 'package.json'));
  const repoRoot = opts.repoRoot ?? workspaceRoot(pkgDir, REPO_ROOT);
  const source = releaseSource(pkgDir, repoRoot);
  const draft: ReleaseDraft = {
    id: makeReleaseId(pkg.version, source.digest),
    remote,
    version: pkg.version,
    builtAt: new Date().toISOString(),
    sourceHash: source.digest,
    source: { inputs: source.inputs, gitCommit: gitCommit(repoRoot) },
    shared: Object.fromEntries(SHARED_PACKAGES.map((n) => [n, pkg.dependencies[n]])),
    contractVersion: CONTRACT_VERSION,
  };
  return { pkgDir, draft };
}

export function assertSharedRanges(draft: Pick<ReleaseDraft, 'remote' | 'shared'>): void {
  const problems = sharedRangeProblems(draft.shared, shellSharedVersions());
  if (problems.length) {
    throw new ReleaseError(
      `Refusing to release ${draft.remote}: its shared dependencies do not match the shell.\n  - ${problems.join('\n  - ')}\n  Align the ranges in the remote's package.json with the shell's versions, then build again.`,
    );
  }
}

/**
 * Builds a remote for its release address into `outDir` (client/ + server/) and writes its release.json draft there:
 * the folder a team uploads (the release API) or the local release stores. The shared ranges are checked first,
 * before spending time on a build.
 */
export function buildRelease(remote: string, outDir: string, opts: BuildSource = {}): ReleaseDraft {
  assertRemote(remote);
  const log = opts.log ?? ((l: string) => console.log(l));
  const { pkgDir, draft } = planRelease(remote, opts);
  assertSharedRanges(draft);
  const env = { REMOTE_BASE: remoteBaseUrl(remote, draft.id), REMOTE_OUT_DIR: outDir, NODE_ENV: 'production' };
  log(`${remote}: building release ${draft.id} (browser build)`);
  run('pnpm', ['exec', 'vite', 'build', '--configLoader', 'runner', '--logLevel', 'warn'], pkgDir, env);
  log(`${remote}: building release ${draft.id} (server build)`);
  run('pnpm', ['exec', 'vite', 'build', '--ssr', '--configLoader', 'runner', '--logLevel', 'warn'], pkgDir, env);
  writeFileSync(join(outDir, 'release.json'), JSON.stringify(draft, null, 2) + '\n');
  return draft;
}

const execFileAsync = promisify(execFile);

/**
 * The checks every release passes before it is stored, whether built here (`pnpm release`) or uploaded (the
 * release API): a plausible id, the route-contract version, shared-dependency ranges the shell satisfies, both
 * entries and the exposed-module list present, and the server entry imported in a separate process. Returns the
 * release.json to store (stylesheets and entry digests taken from the files themselves).
 */
export async function checkBuild(dir: string, draft: ReleaseDraft): Promise<ReleaseMeta> {
  const { remote } = draft;
  assertRemote(remote);
  const contract = contractProblem(draft);
  if (contract)
    throw new ReleaseError(
      `Refusing to release ${remote}: ${contract}. Build it from sources that match the site's platform package.`,
    );
  assertSharedRanges(draft);
  const entry = join(dir, 'client', REMOTE_ENTRY_FILE);
  const serverEntry = join(dir, 'server', SERVER_ENTRY_FILE);
  if (!existsSync(entry))
    throw new ReleaseError(
      `Refusing to release ${remote}: the build has no browser entry (client/${REMOTE_ENTRY_FILE}).`,
    );
  if (!existsSync(serverEntry))
    throw new ReleaseError(
      `Refusing to release ${remote}: the build has no server entry (server/${SERVER_ENTRY_FILE}).`,
    );
  const modules = exposedModules(join(dir, 'client'));
  if (!modules.length)
    throw new ReleaseError(
      `Refusing to release ${remote}: the build lists no exposed modules (client/${PRELOAD_MANIFEST_FILE}).`,
    );

  // Not in this process: a failed import would stay in its module cache (and a running server keeps serving).
  try {
    await execFileAsync(
      process.execPath,
      ['--import', 'tsx', join(API_ROOT, 'src', 'releases', 'checkEntry.ts'), serverEntry, modules.join(',')],
      { cwd: API_ROOT, encoding: 'utf8', timeout: 60_000 },
    );
  } catch (err) {
    const out = err as { stderr?: string; stdout?: string; message: string };
    throw new ReleaseError(
      `Refusing to release ${remote}: its server entry does not load.\n${(out.stderr || out.stdout || out.message).trim()}`,
    );
  }
  return {
    ...draft,
    css: readdirSync(join(dir, 'client'))
      .filter((f) => f.endsWith('.css'))
      .sort(),
    // The server checks these before serving the release: a changed entry is a damaged release.
    files: Object.fromEntries(CHECKED_FILES.map((f) => [f, fileDigest(join(dir, f))!])),
  };
}
