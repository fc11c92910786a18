import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { userInfo, hostname } from 'node:os';
import { join } from 'node:path';
import { API_ROOT, REMOTE_NAMES, REPO_ROOT, remotePackageDir, SHARED_RESOLVE_PARENT } from '../paths';
import { SHARED_PACKAGES } from '@aitools/platform/shared';
import { CONTRACT_VERSION } from '@aitools/platform/contract';
import { sharedRangeProblems } from './compat';
import { CHECKED_FILES, contractProblem, fileDigest } from './health';
import { LAST_GOOD_FILE, readReleaseMeta, releaseDir, remoteBaseUrl, SERVER_ENTRY_FILE, REMOTE_ENTRY_FILE, PRELOAD_MANIFEST_FILE, type Manifest, type ManifestEvent, type ReleaseMeta } from './manifest';
import { fileManifestStore, type ManifestStore } from './manifestStore';
import { gitCommit, releaseSource, workspaceRoot } from './sourceHash';

/** Releases kept per remote (at least), so visitors mid-session on an older release still find its chunks. */
export const KEEP_RELEASES = 5;

export class ReleaseError extends Error {}

function assertRemote(remote: string): void {
  if (!(REMOTE_NAMES as readonly string[]).includes(remote)) {
    throw new ReleaseError(`Unknown remote "${remote}". Known remotes: ${REMOTE_NAMES.join(', ')}.`);
  }
}

function actor(): string {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    /* containers without a passwd entry */
  }
  return process.env.RELEASE_ACTOR ?? `${user}@${hostname()}`;
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/** The versions of the shared packages the shell runs with (what it will give a remote at run time). */
export function shellSharedVersions(): Record<string, string> {
  // Each package's own metadata, resolved as the shell resolves it (the copy the browser and the server share).
  const fromShell = createRequire(SHARED_RESOLVE_PARENT);
  const out: Record<string, string> = {};
  for (const name of SHARED_PACKAGES) {
    try {
      out[name] = (fromShell(`${name}/package.json`) as { version: string }).version;
    } catch {
      /* not installed: the range check reports it */
    }
  }
  return out;
}

/** "<version>-<UTC time>-<source digest>": tells which version and which build. */
export function makeReleaseId(version: string, hash: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${version}-${stamp}-${hash.slice(0, 8)}`;
}

/** The release files' folder, and where the manifest lives (manifest.json there by default). */
export interface StoreLocation {
  releasesDir: string;
  manifests?: ManifestStore;
}

const manifestsOf = (opts: StoreLocation) => opts.manifests ?? fileManifestStore(opts.releasesDir);

export interface ReleaseOptions extends StoreLocation {
  /** Skip when the active release was built from the same sources. */
  ifChanged?: boolean;
  /** Use an existing build folder (client/ + server/) instead of building; for checks of the refusals. */
  prebuiltDir?: string;
  /** The remote's package folder (defaults to mfe-<remote>); tests point it at fixtures. */
  packageDir?: string;
  /** The checkout holding the platform, contracts and lockfile the build bundles (defaults to the package's workspace). */
  repoRoot?: string;
  log?: (line: string) => void;
}

export interface ReleaseResult {
  remote: string;
  id: string;
  skipped: boolean;
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

/** Builds one remote for its release address, checks it, stores it unchanged and makes it active. */
export async function release(remote: string, opts: ReleaseOptions): Promise<ReleaseResult> {
  assertRemote(remote);
  const log = opts.log ?? ((l: string) => console.log(l));
  const pkgDir = opts.packageDir ?? remotePackageDir(remote);
  const pkg = readJson<{ version: string; dependencies: Record<string, string> }>(join(pkgDir, 'package.json'));
  const repoRoot = opts.repoRoot ?? workspaceRoot(pkgDir, REPO_ROOT);
  const source = releaseSource(pkgDir, repoRoot);
  const hash = source.digest;
  const manifests = manifestsOf(opts);
  const active = manifests.read().manifest.remotes[remote]?.active ?? null;

  if (opts.ifChanged && active) {
    const meta = readReleaseMeta(opts.releasesDir, remote, active);
    // Same sources but built against another route contract (or before versions were recorded): build again.
    if (meta?.sourceHash === hash && !contractProblem(meta) && existsSync(releaseDir(opts.releasesDir, remote, active))) {
      log(`${remote}: sources (package, platform, contracts, lockfile) unchanged, ${active} stays active`);
      return { remote, id: active, skipped: true };
    }
  }

  // The shared ranges are checked before spending time on a build.
  const problems = sharedRangeProblems(pkg.dependencies, shellSharedVersions());
  if (problems.length) {
    throw new ReleaseError(`Refusing to release ${remote}: its shared dependencies do not match the shell.\n  - ${problems.join('\n  - ')}`);
  }

  const id = makeReleaseId(pkg.version, hash);
  const staging = join(opts.releasesDir, '.staging', `${remote}-${id}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    if (opts.prebuiltDir) {
      for (const part of ['client', 'server']) {
        if (existsSync(join(opts.prebuiltDir, part))) renameSync(join(opts.prebuiltDir, part), join(staging, part));
      }
    } else {
      log(`${remote}: building release ${id}`);
      const env = { REMOTE_BASE: remoteBaseUrl(remote, id), REMOTE_OUT_DIR: staging, NODE_ENV: 'production' };
      run('pnpm', ['exec', 'vite', 'build', '--configLoader', 'runner', '--logLevel', 'warn'], pkgDir, env);
      run('pnpm', ['exec', 'vite', 'build', '--ssr', '--configLoader', 'runner', '--logLevel', 'warn'], pkgDir, env);
    }

    const entry = join(staging, 'client', REMOTE_ENTRY_FILE);
    const serverEntry = join(staging, 'server', SERVER_ENTRY_FILE);
    if (!existsSync(entry)) throw new ReleaseError(`Refusing to release ${remote}: the build has no browser entry (client/${REMOTE_ENTRY_FILE}).`);
    if (!existsSync(serverEntry)) throw new ReleaseError(`Refusing to release ${remote}: the build has no server entry (server/${SERVER_ENTRY_FILE}).`);
    const modules = exposedModules(join(staging, 'client'));
    if (!modules.length) throw new ReleaseError(`Refusing to release ${remote}: the build lists no exposed modules (client/${PRELOAD_MANIFEST_FILE}).`);

    const check = spawnSync(process.execPath, ['--import', 'tsx', join(API_ROOT, 'src', 'releases', 'checkEntry.ts'), serverEntry, modules.join(',')], {
      cwd: API_ROOT,
      encoding: 'utf8',
    });
    if (check.status !== 0) {
      throw new ReleaseError(`Refusing to release ${remote}: its server entry does not load.\n${(check.stderr || check.stdout).trim()}`);
    }

    const meta: ReleaseMeta = {
      id,
      remote,
      version: pkg.version,
      builtAt: new Date().toISOString(),
      sourceHash: hash,
      source: { inputs: source.inputs, gitCommit: gitCommit(repoRoot) },
      shared: Object.fromEntries(SHARED_PACKAGES.map((n) => [n, pkg.dependencies[n]])),
      css: readdirSync(join(staging, 'client')).filter((f) => f.endsWith('.css')).sort(),
      contractVersion: CONTRACT_VERSION,
      // The server checks these before serving the release: a changed entry is a damaged release.
      files: Object.fromEntries(CHECKED_FILES.map((f) => [f, fileDigest(join(staging, f))!])),
    };
    writeFileSync(join(staging, 'release.json'), JSON.stringify(meta, null, 2) + '\n');
    mkdirSync(join(opts.releasesDir, remote), { recursive: true });
    renameSync(staging, releaseDir(opts.releasesDir, remote, id));
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }

  await activate(opts.releasesDir, manifests, remote, id, 'release');
  prune({ releasesDir: opts.releasesDir, manifests }, remote, log);
  log(`${remote}: ${id} is active`);
  return { remote, id, skipped: false };
}

async function activate(releasesDir: string, manifests: ManifestStore, remote: string, id: string, action: ManifestEvent['action']): Promise<Manifest> {
  const meta = readReleaseMeta(releasesDir, remote, id);
  const contract = meta ? contractProblem(meta) : 'its release.json is missing or unreadable';
  if (contract) throw new ReleaseError(`Refusing to ${action === 'rollback' ? 'roll back to' : 'activate'} ${remote} ${id}: ${contract}. Release the remote again from its sources.`);
  const read = manifests.read();
  if (read.unrecovered.length) {
    const lost = read.unrecovered.includes('*') ? 'every remote' : read.unrecovered.join(', ');
    throw new ReleaseError(`Refusing to change the manifest: ${read.problem}, and no last good state is known for ${lost}, so writing it would lose them. Repair ${manifests.where} (or restore ${LAST_GOOD_FILE}) first.`);
  }
  return manifests.record(remote, { action, id, at: new Date().toISOString(), by: actor() });
}

export interface ReleaseInfo extends ReleaseMeta {
  active: boolean;
}

/** Releases of a remote, newest first. */
export function listReleases(at: StoreLocation, remote: string): ReleaseInfo[] {
  assertRemote(remote);
  const { releasesDir } = at;
  const dir = join(releasesDir, remote);
  if (!existsSync(dir)) return [];
  const active = manifestsOf(at).read().manifest.remotes[remote]?.active;
  return readdirSync(dir)
    .map((id) => readReleaseMeta(releasesDir, remote, id))
    .filter((m): m is ReleaseMeta => m !== null)
    .sort((a, b) => b.builtAt.localeCompare(a.builtAt))
    .map((m) => ({ ...m, active: m.id === active }));
}

/** Points the remote back at the release active before the current one, or at `to`. Changes only the manifest. */
export async function rollback(remote: string, opts: StoreLocation & { to?: string }): Promise<{ remote: string; from: string; to: string }> {
  assertRemote(remote);
  const manifests = manifestsOf(opts);
  const state = manifests.read().manifest.remotes[remote];
  if (!state) throw new ReleaseError(`${remote} has no releases to roll back.`);
  let target = opts.to;
  if (target) {
    if (!readReleaseMeta(opts.releasesDir, remote, target)) {
      const known = listReleases(opts, remote).map((r) => r.id);
      throw new ReleaseError(`Unknown release "${target}" for ${remote}. Known releases: ${known.join(', ') || 'none'}.`);
    }
  } else {
    // The release that was active before the current one became active.
    const current = [...state.history].reverse().find((e) => e.id === state.active);
    target = current?.from ?? undefined;
    if (!target || !readReleaseMeta(opts.releasesDir, remote, target)) {
      throw new ReleaseError(`${remote} has no earlier release to roll back to (active: ${state.active}).`);
    }
  }
  if (target === state.active) throw new ReleaseError(`${target} is already the active release of ${remote}.`);
  await activate(opts.releasesDir, manifests, remote, target, 'rollback');
  return { remote, from: state.active, to: target };
}

/** Keeps the newest KEEP_RELEASES releases (rollback targets, and chunks for visitors still on them) and the active one. */
export function prune(at: StoreLocation, remote: string, log: (l: string) => void = () => {}): string[] {
  const { releasesDir } = at;
  const active = manifestsOf(at).read().manifest.remotes[remote]?.active;
  const removed: string[] = [];
  for (const r of listReleases(at, remote).slice(KEEP_RELEASES)) {
    if (r.id === active) continue;
    rmSync(releaseDir(releasesDir, remote, r.id), { recursive: true, force: true });
    removed.push(r.id);
    log(`${remote}: removed old release ${r.id}`);
  }
  return removed;
}
