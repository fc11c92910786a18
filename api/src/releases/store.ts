import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { userInfo, hostname } from 'node:os';
import { join } from 'node:path';
import { API_ROOT, REMOTE_NAMES, REPO_ROOT, remotePackageDir, SHARED_RESOLVE_PARENT } from '../paths';
import { SHARED_PACKAGES } from '@aitools/platform/shared';
import { CONTRACT_VERSION } from '@aitools/platform/contract';
import { sharedRangeProblems } from './compat';
import { CHECKED_FILES, contractProblem, fileDigest } from './health';
import {
  AUTOMATIC_ACTOR,
  LAST_GOOD_FILE,
  readReleaseMeta,
  rolledBackAutomatically,
  type RemoteState,
  releaseDir,
  releaseDraftSchema,
  remoteBaseUrl,
  SERVER_ENTRY_FILE,
  REMOTE_ENTRY_FILE,
  PRELOAD_MANIFEST_FILE,
  type ManifestEvent,
  type ReleaseDraft,
  type ReleaseMeta,
} from './manifest';
import { DEFAULT_UPLOAD_LIMITS, unpackArchive, UploadError, type UploadLimits } from './upload';
import { fileManifestStore, StaleStateError, type ManifestStore } from './manifestStore';
import { gitCommit, releaseSource, workspaceRoot } from './sourceHash';

/** Releases kept per remote (at least), so visitors mid-session on an older release still find its chunks. */
export const KEEP_RELEASES = 5;

/** A refusal, with the HTTP status the release API answers it with (422: the release fails a check). */
export class ReleaseError extends Error {
  constructor(
    message: string,
    readonly status = 422,
  ) {
    super(message);
  }
}

function assertRemote(remote: string): void {
  if (!(REMOTE_NAMES as readonly string[]).includes(remote)) {
    throw new ReleaseError(`Unknown remote "${remote}". Known remotes: ${REMOTE_NAMES.join(', ')}.`, 404);
  }
}

/** Who runs a local command, for the history (RELEASE_ACTOR, else user@host). */
export function actor(): string {
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
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
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
  /** Start it as a canary for this share of visitors (1-99 percent) instead of activating it for everyone. */
  canary?: number;
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

/** A remote's package and what its next release would be: read before building (and before skipping a build). */
function planRelease(remote: string, opts: Pick<ReleaseOptions, 'packageDir' | 'repoRoot'>) {
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

function assertSharedRanges(draft: Pick<ReleaseDraft, 'remote' | 'shared'>): void {
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
export function buildRelease(
  remote: string,
  outDir: string,
  opts: Pick<ReleaseOptions, 'packageDir' | 'repoRoot' | 'log'> = {},
): ReleaseDraft {
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

/** Moves a checked release folder into the store under its id (a release id is never reused: 409). */
function storeChecked(releasesDir: string, dir: string, meta: ReleaseMeta): void {
  const target = releaseDir(releasesDir, meta.remote, meta.id);
  const exists = () =>
    new ReleaseError(
      `Release ${meta.id} of ${meta.remote} exists already; a release id is never reused. Build again (a new build gets a new id).`,
      409,
    );
  if (existsSync(target)) throw exists();
  writeFileSync(join(dir, 'release.json'), JSON.stringify(meta, null, 2) + '\n');
  mkdirSync(join(releasesDir, meta.remote), { recursive: true });
  try {
    renameSync(dir, target);
  } catch (err) {
    // Another upload of the same id won the rename.
    if ((err as NodeJS.ErrnoException).code === 'ENOTEMPTY' || (err as NodeJS.ErrnoException).code === 'EEXIST')
      throw exists();
    throw err;
  }
}

/** A fresh folder under the store for one release's files until they pass their checks. */
function stagingDir(releasesDir: string, name: string): string {
  return join(releasesDir, '.staging', `${name}-${randomBytes(6).toString('hex')}`);
}

/** Builds one remote for its release address, checks it, stores it unchanged and makes it active. */
export async function release(remote: string, opts: ReleaseOptions): Promise<ReleaseResult> {
  assertRemote(remote);
  const log = opts.log ?? ((l: string) => console.log(l));
  const manifests = manifestsOf(opts);
  const active = manifests.read().manifest.remotes[remote]?.active ?? null;
  const { draft } = planRelease(remote, opts);

  if (opts.ifChanged && active) {
    const meta = readReleaseMeta(opts.releasesDir, remote, active);
    // Same sources but built against another route contract (or before versions were recorded): build again.
    if (
      meta?.sourceHash === draft.sourceHash &&
      !contractProblem(meta) &&
      existsSync(releaseDir(opts.releasesDir, remote, active))
    ) {
      log(`${remote}: sources (package, platform, contracts, lockfile) unchanged, ${active} stays active`);
      return { remote, id: active, skipped: true };
    }
  }

  const staging = stagingDir(opts.releasesDir, remote);
  mkdirSync(staging, { recursive: true });
  let built = draft;
  try {
    if (opts.prebuiltDir) {
      assertSharedRanges(draft);
      for (const part of ['client', 'server']) {
        if (existsSync(join(opts.prebuiltDir, part))) renameSync(join(opts.prebuiltDir, part), join(staging, part));
      }
    } else {
      built = buildRelease(remote, staging, opts);
    }
    storeChecked(opts.releasesDir, staging, await checkBuild(staging, built));
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }

  if (opts.canary !== undefined) {
    const r = await activateStored(remote, built.id, {
      releasesDir: opts.releasesDir,
      manifests,
      by: actor(),
      canary: opts.canary,
      log,
    });
    log(`${remote}: ${built.id} serves ${r.canary}% of visitors as a canary beside ${r.from}`);
    return { remote, id: built.id, skipped: false };
  }
  await activate(opts.releasesDir, manifests, remote, built.id, 'release');
  prune({ releasesDir: opts.releasesDir, manifests }, remote, log);
  log(`${remote}: ${built.id} is active`);
  return { remote, id: built.id, skipped: false };
}

/**
 * Stores an uploaded release folder (a gzip tar) after the same checks as a local build; it is not activated.
 * Nothing reaches the store unless every check passes: the files wait in a staging folder, removed on refusal.
 */
export async function storeUpload(
  remote: string,
  body: Buffer,
  opts: StoreLocation & { by: string; limits?: UploadLimits },
): Promise<ReleaseMeta> {
  assertRemote(remote);
  const staging = stagingDir(opts.releasesDir, `upload-${remote}`);
  try {
    await unpackArchive(body, staging, opts.limits ?? DEFAULT_UPLOAD_LIMITS);
    let draft: ReleaseDraft;
    try {
      const parsed = releaseDraftSchema.safeParse(JSON.parse(readFileSync(join(staging, 'release.json'), 'utf8')));
      if (!parsed.success)
        throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      draft = parsed.data;
    } catch (err) {
      throw new UploadError(
        400,
        `The archive's release.json is missing or invalid (${(err as Error).message}). Build with \`pnpm release <remote> --site <url>\`, which writes it.`,
      );
    }
    if (draft.remote !== remote)
      throw new UploadError(
        400,
        `The archive is a release of ${draft.remote}, uploaded as ${remote}. Upload it to /api/releases/${draft.remote}.`,
      );
    if (existsSync(releaseDir(opts.releasesDir, remote, draft.id))) {
      throw new ReleaseError(
        `Release ${draft.id} of ${remote} exists already; a release id is never reused. Build again (a new build gets a new id).`,
        409,
      );
    }
    const meta = { ...(await checkBuild(staging, draft)), releasedBy: opts.by };
    storeChecked(opts.releasesDir, staging, meta);
    return meta;
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}

export interface ActivateOptions extends StoreLocation {
  by: string;
  /** Serve it to this share of visitors (1-99 percent) beside the active release, instead of to everyone. */
  canary?: number;
  /** A person re-activates a release the server rolled back on its own. */
  force?: boolean;
  /** Why, in the history (the console's reason). */
  note?: string;
  log?: (l: string) => void;
}

/** Makes a stored release the remote's active one, or its canary (the release API's activate), recorded under `by`. */
export async function activateStored(
  remote: string,
  id: string,
  opts: ActivateOptions,
): Promise<{ remote: string; from: string | null; to: string; canary?: number }> {
  assertRemote(remote);
  const manifests = manifestsOf(opts);
  if (!readReleaseMeta(opts.releasesDir, remote, id)) {
    const known = listReleases(opts, remote).map((r) => r.id);
    throw new ReleaseError(
      `Unknown release "${id}" for ${remote}. Known releases: ${known.join(', ') || 'none'}.`,
      404,
    );
  }
  const state = manifests.read().manifest.remotes[remote];
  const from = state?.active ?? null;
  if (from === id) throw new ReleaseError(`${id} is already the active release of ${remote}.`, 409);
  assertNotRolledBack(state, remote, id, opts.force);
  if (opts.canary !== undefined) {
    if (!from)
      throw new ReleaseError(
        `${remote} has no active release to run a canary beside: activate ${id} for everyone first.`,
        409,
      );
    if (state?.canary)
      throw new ReleaseError(
        `${remote} already runs ${state.canary.id} as a canary (${state.canary.percent}%): promote or abort it first.`,
        409,
      );
    await activate(opts.releasesDir, manifests, remote, id, 'canary', opts.by, {
      canary: opts.canary,
      ...noteOf(opts),
    });
    return { remote, from, to: id, canary: opts.canary };
  }
  await activate(opts.releasesDir, manifests, remote, id, 'release', opts.by, noteOf(opts));
  prune({ releasesDir: opts.releasesDir, manifests }, remote, opts.log);
  return { remote, from, to: id };
}

/** A release the server rolled back on its own comes back only when a person says so (force). */
function assertNotRolledBack(state: RemoteState | undefined, remote: string, id: string, force = false): void {
  const why = rolledBackAutomatically(state).get(id);
  if (why && !force)
    throw new ReleaseError(
      `${id} of ${remote} was rolled back automatically (${why}). To serve it again anyway, activate it with force (--force, or "force": true).`,
      409,
    );
}

/** The canary becomes the active release for everyone. */
export async function promote(
  remote: string,
  opts: StoreLocation & { by: string; note?: string; log?: (l: string) => void },
): Promise<{ remote: string; from: string; to: string }> {
  assertRemote(remote);
  const manifests = manifestsOf(opts);
  const state = manifests.read().manifest.remotes[remote];
  if (!state?.canary) throw new ReleaseError(`${remote} runs no canary to promote.`, 409);
  await activate(
    opts.releasesDir,
    manifests,
    remote,
    state.canary.id,
    'promote',
    opts.by,
    noteOf(opts),
    (s) => s?.canary?.id === state.canary?.id,
  );
  prune({ releasesDir: opts.releasesDir, manifests }, remote, opts.log);
  return { remote, from: state.active, to: state.canary.id };
}

/** Ends the canary: every visitor gets the active release from the next page. */
export async function abort(
  remote: string,
  opts: StoreLocation & { by: string; note?: string },
): Promise<{ remote: string; active: string; aborted: string }> {
  assertRemote(remote);
  const manifests = manifestsOf(opts);
  const state = manifests.read().manifest.remotes[remote];
  if (!state?.canary) throw new ReleaseError(`${remote} runs no canary to abort.`, 409);
  const canaryId = state.canary.id;
  await recordGuarded(
    manifests,
    remote,
    {
      action: 'abort',
      id: canaryId,
      at: new Date().toISOString(),
      by: opts.by,
      ...(opts.note ? { note: opts.note } : {}),
    },
    (s) => s?.canary?.id === canaryId,
  );
  return { remote, active: state.active, aborted: canaryId };
}

/**
 * What the automatic rollback writes (autoRollback.ts): ends the canary `bad`, or rolls the active release `bad`
 * back to `to`, only while the state is still the one it judged (another instance may have acted first: false).
 */
export async function rollBackAutomatically(
  remote: string,
  bad: string,
  opts: StoreLocation & { to?: string; note: string },
): Promise<boolean> {
  const manifests = manifestsOf(opts);
  const at = new Date().toISOString();
  try {
    if (!opts.to)
      await manifests.record(
        remote,
        { action: 'abort', id: bad, at, by: AUTOMATIC_ACTOR, note: opts.note },
        (s) => s?.canary?.id === bad,
      );
    else
      await manifests.record(
        remote,
        { action: 'rollback', id: opts.to, at, by: AUTOMATIC_ACTOR, note: opts.note },
        (s) => s?.active === bad && !s.canary,
      );
    return true;
  } catch (err) {
    if (err instanceof StaleStateError) return false;
    throw err;
  }
}

/** A person's reason for the history, when one was given. */
const noteOf = (opts: { note?: string }): Pick<ManifestEvent, 'note'> => (opts.note ? { note: opts.note } : {});

async function recordGuarded(
  manifests: ManifestStore,
  remote: string,
  event: Omit<ManifestEvent, 'from'>,
  expect: (s: RemoteState | undefined) => boolean,
): Promise<void> {
  try {
    await manifests.record(remote, event, expect);
  } catch (err) {
    if (err instanceof StaleStateError)
      throw new ReleaseError(`The release state of ${remote} changed meanwhile; list it again and retry.`, 409);
    throw err;
  }
}

async function activate(
  releasesDir: string,
  manifests: ManifestStore,
  remote: string,
  id: string,
  action: ManifestEvent['action'],
  by = actor(),
  extra: Pick<ManifestEvent, 'canary' | 'note'> = {},
  expect?: (s: RemoteState | undefined) => boolean,
): Promise<void> {
  const meta = readReleaseMeta(releasesDir, remote, id);
  const contract = meta ? contractProblem(meta) : 'its release.json is missing or unreadable';
  if (contract)
    throw new ReleaseError(
      `Refusing to ${action === 'rollback' ? 'roll back to' : 'activate'} ${remote} ${id}: ${contract}. Release the remote again from its sources.`,
    );
  const read = manifests.read();
  if (read.unrecovered.length) {
    const lost = read.unrecovered.includes('*') ? 'every remote' : read.unrecovered.join(', ');
    throw new ReleaseError(
      `Refusing to change the manifest: ${read.problem}, and no last good state is known for ${lost}, so writing it would lose them. Repair ${manifests.where} (or restore ${LAST_GOOD_FILE}) first.`,
    );
  }
  await recordGuarded(
    manifests,
    remote,
    { action, id, at: new Date().toISOString(), by, ...extra },
    expect ?? (() => true),
  );
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
export async function rollback(
  remote: string,
  opts: StoreLocation & { to?: string; by?: string; force?: boolean; note?: string },
): Promise<{ remote: string; from: string; to: string }> {
  assertRemote(remote);
  const manifests = manifestsOf(opts);
  const state = manifests.read().manifest.remotes[remote];
  if (!state) throw new ReleaseError(`${remote} has no releases to roll back.`, 409);
  let target = opts.to;
  if (target) {
    if (!readReleaseMeta(opts.releasesDir, remote, target)) {
      const known = listReleases(opts, remote).map((r) => r.id);
      throw new ReleaseError(
        `Unknown release "${target}" for ${remote}. Known releases: ${known.join(', ') || 'none'}.`,
        404,
      );
    }
  } else {
    // The release that was active before the current one became active.
    const current = [...state.history].reverse().find((e) => e.id === state.active);
    target = current?.from ?? undefined;
    if (!target || !readReleaseMeta(opts.releasesDir, remote, target)) {
      throw new ReleaseError(`${remote} has no earlier release to roll back to (active: ${state.active}).`, 409);
    }
  }
  if (target === state.active) throw new ReleaseError(`${target} is already the active release of ${remote}.`, 409);
  assertNotRolledBack(state, remote, target, opts.force);
  await activate(opts.releasesDir, manifests, remote, target, 'rollback', opts.by, noteOf(opts));
  return { remote, from: state.active, to: target };
}

/** Keeps the newest KEEP_RELEASES releases (rollback targets, and chunks for visitors still on them) and the active one. */
export function prune(at: StoreLocation, remote: string, log: (l: string) => void = () => {}): string[] {
  const { releasesDir } = at;
  const state = manifestsOf(at).read().manifest.remotes[remote];
  const removed: string[] = [];
  for (const r of listReleases(at, remote).slice(KEEP_RELEASES)) {
    if (r.id === state?.active || r.id === state?.canary?.id) continue;
    rmSync(releaseDir(releasesDir, remote, r.id), { recursive: true, force: true });
    removed.push(r.id);
    log(`${remote}: removed old release ${r.id}`);
  }
  return removed;
}
