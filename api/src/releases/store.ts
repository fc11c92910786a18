/**
 * What operators, the release API and the console do with releases: store one (built here or uploaded), activate,
 * canary, promote, abort, roll back, list, prune. One code path for both stores: the files go down to the release
 * store (releaseStore.ts), the decisions to the manifest store (manifestStore.ts); neither calls back up.
 */
import { mkdirSync, renameSync, existsSync, rmSync } from 'node:fs';
import { userInfo, hostname } from 'node:os';
import { join } from 'node:path';
import { assertSharedRanges, buildRelease, checkBuild, planRelease, type BuildSource } from './build';
import { contractProblem } from './health';
import {
  AUTOMATIC_ACTOR,
  rolledBackAutomatically,
  StaleStateError,
  type ManifestEvent,
  type ManifestStore,
  type ReleaseMeta,
  type RemoteState,
} from './manifest';
import { LAST_GOOD_FILE } from './manifestFile';
import { assertRemote, ReleaseError } from './refusal';
import { releaseExists, stagingDir } from './localCopy';
import type { ReleaseStore } from './releaseStore';
import { DEFAULT_UPLOAD_LIMITS, unpackRelease, type UploadLimits } from './upload';

/** Releases kept per remote (at least), so visitors mid-session on an older release still find its chunks. */
export const KEEP_RELEASES = 5;

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

/** Where releases are kept: the local release folder (staging, the local copy), the manifest and the files. The
 *  stores are opened once by whoever starts (main.ts, the CLI: openReleaseStore.ts) and passed down. */
export interface StoreLocation {
  releasesDir: string;
  manifests: ManifestStore;
  files: ReleaseStore;
}

export interface ReleaseOptions extends StoreLocation, BuildSource {
  /** Skip when the active release was built from the same sources. */
  ifChanged?: boolean;
  /** Start it as a canary for this share of visitors (1-99 percent) instead of activating it for everyone. */
  canary?: number;
  /** Use an existing build folder (client/ + server/) instead of building; for checks of the refusals. */
  prebuiltDir?: string;
}

export interface ReleaseResult {
  remote: string;
  id: string;
  skipped: boolean;
  /** The remote's state after it (releaseChange.ts purges from it). */
  state: RemoteState | undefined;
}

/** Builds one remote for its release address, checks it, stores it unchanged and makes it active. */
export async function release(remote: string, opts: ReleaseOptions): Promise<ReleaseResult> {
  assertRemote(remote);
  const log = opts.log ?? ((l: string) => console.log(l));
  const { manifests, files } = opts;
  const current = manifests.read().manifest.remotes[remote];
  const active = current?.active ?? null;
  const { draft } = planRelease(remote, opts);

  if (opts.ifChanged && active) {
    const meta = await files.meta(remote, active);
    // Same sources but built against another route contract (or before versions were recorded): build again.
    if (meta?.sourceHash === draft.sourceHash && !contractProblem(meta)) {
      log(`${remote}: sources (package, platform, contracts, lockfile) unchanged, ${active} stays active`);
      return { remote, id: active, skipped: true, state: current };
    }
  }

  // Refused before the build, which takes a while (a canary beside a canary, or an activation that would end it).
  assertNoCanary(current, remote);

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
    await files.put(staging, await checkBuild(staging, built));
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }

  const at = { ...opts, manifests, files };
  if (opts.canary !== undefined) {
    const r = await activateStored(remote, built.id, { ...at, by: actor(), canary: opts.canary, log });
    log(`${remote}: ${built.id} serves ${r.canary}% of visitors as a canary beside ${r.from}`);
    return { remote, id: built.id, skipped: false, state: r.state };
  }
  const state = await activate(at, remote, built.id, 'release', actor(), {}, noCanary);
  await prune(at, remote, log);
  log(`${remote}: ${built.id} is active`);
  return { remote, id: built.id, skipped: false, state };
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
  const { files } = opts;
  const staging = stagingDir(opts.releasesDir, `upload-${remote}`);
  try {
    const draft = await unpackRelease(body, staging, remote, opts.limits ?? DEFAULT_UPLOAD_LIMITS);
    // Before the checks, which take a while: a reused id is refused at once (and again by put, atomically).
    if (await files.meta(remote, draft.id)) throw releaseExists(draft);
    const meta = { ...(await checkBuild(staging, draft)), releasedBy: opts.by };
    await files.put(staging, meta);
    // Uploads alone would fill the disk: the old ones go as after an activation, never the one just stored.
    await prune(opts, remote, () => {}, meta.id);
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
): Promise<{ remote: string; from: string | null; to: string; canary?: number; state: RemoteState }> {
  assertRemote(remote);
  const { manifests } = opts;
  await assertStored(opts, remote, id);
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
    assertNoCanary(state, remote);
    const after = await activate(
      opts,
      remote,
      id,
      'canary',
      opts.by,
      { canary: opts.canary, ...noteOf(opts) },
      noCanary,
    );
    return { remote, from, to: id, canary: opts.canary, state: after };
  }
  assertNoCanary(state, remote);
  const after = await activate(opts, remote, id, 'release', opts.by, noteOf(opts), noCanary);
  await prune(opts, remote, opts.log);
  return { remote, from, to: id, state: after };
}

/**
 * One canary at a time, and it ends only by promote or abort: a new active release would drop it from the manifest
 * (applyEvent) unannounced. Checked up front for the answer, and again in the manifest's write (noCanary) for a
 * canary started meanwhile.
 */
function assertNoCanary(state: RemoteState | undefined, remote: string): void {
  if (state?.canary)
    throw new ReleaseError(
      `${remote} runs ${state.canary.id} as a canary (${state.canary.percent}%): promote or abort it first.`,
      409,
    );
}
const noCanary = (s: RemoteState | undefined) => !s?.canary;

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
): Promise<{ remote: string; from: string; to: string; state: RemoteState }> {
  assertRemote(remote);
  const { manifests } = opts;
  const state = manifests.read().manifest.remotes[remote];
  if (!state?.canary) throw new ReleaseError(`${remote} runs no canary to promote.`, 409);
  const after = await activate(
    opts,
    remote,
    state.canary.id,
    'promote',
    opts.by,
    noteOf(opts),
    (s) => s?.canary?.id === state.canary?.id,
  );
  await prune(opts, remote, opts.log);
  return { remote, from: state.active, to: state.canary.id, state: after };
}

/** Ends the canary: every visitor gets the active release from the next page. */
export async function abort(
  remote: string,
  opts: StoreLocation & { by: string; note?: string },
): Promise<{ remote: string; active: string; aborted: string; state: RemoteState }> {
  assertRemote(remote);
  const { manifests } = opts;
  const state = manifests.read().manifest.remotes[remote];
  if (!state?.canary) throw new ReleaseError(`${remote} runs no canary to abort.`, 409);
  const canaryId = state.canary.id;
  const after = await recordGuarded(
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
  return { remote, active: state.active, aborted: canaryId, state: after };
}

/**
 * What the automatic rollback writes (autoRollback.ts): ends the canary `bad`, or rolls the active release `bad`
 * back to `to`, only while the state is still the one it judged (another instance may have acted first: false).
 */
export async function rollBackAutomatically(
  remote: string,
  bad: string,
  opts: Pick<StoreLocation, 'manifests'> & { to?: string; note: string },
): Promise<boolean> {
  const { manifests } = opts;
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

/** Records the event unless the state changed meanwhile (409); returns the remote's state after it. */
async function recordGuarded(
  manifests: ManifestStore,
  remote: string,
  event: Omit<ManifestEvent, 'from'>,
  expect: (s: RemoteState | undefined) => boolean,
): Promise<RemoteState> {
  try {
    return (await manifests.record(remote, event, expect)).remotes[remote]!;
  } catch (err) {
    if (err instanceof StaleStateError)
      throw new ReleaseError(`The release state of ${remote} changed meanwhile; list it again and retry.`, 409);
    throw err;
  }
}

async function activate(
  at: StoreLocation,
  remote: string,
  id: string,
  action: ManifestEvent['action'],
  by = actor(),
  extra: Pick<ManifestEvent, 'canary' | 'note'> = {},
  expect?: (s: RemoteState | undefined) => boolean,
): Promise<RemoteState> {
  const { manifests } = at;
  const meta = await at.files.meta(remote, id);
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
  return recordGuarded(
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
export async function listReleases(at: StoreLocation, remote: string): Promise<ReleaseInfo[]> {
  assertRemote(remote);
  const active = at.manifests.read().manifest.remotes[remote]?.active;
  return (await at.files.list(remote)).map((m) => ({ ...m, active: m.id === active }));
}

/** Refuses (404) a release the store does not hold, naming the ones it does. */
async function assertStored(at: StoreLocation, remote: string, id: string): Promise<void> {
  if (await at.files.meta(remote, id)) return;
  const known = (await listReleases(at, remote)).map((r) => r.id);
  throw new ReleaseError(`Unknown release "${id}" for ${remote}. Known releases: ${known.join(', ') || 'none'}.`, 404);
}

/** Points the remote back at the release active before the current one, or at `to`. Changes only the manifest. */
export async function rollback(
  remote: string,
  opts: StoreLocation & { to?: string; by?: string; force?: boolean; note?: string },
): Promise<{ remote: string; from: string; to: string; state: RemoteState }> {
  assertRemote(remote);
  const { manifests } = opts;
  const state = manifests.read().manifest.remotes[remote];
  if (!state) throw new ReleaseError(`${remote} has no releases to roll back.`, 409);
  // The console ends a canary with abort (its rollback button does, explicitly); here it would end unannounced.
  assertNoCanary(state, remote);
  let target = opts.to;
  if (target) await assertStored(opts, remote, target);
  else {
    target = rollbackTarget(state) ?? undefined;
    if (!target || !(await opts.files.meta(remote, target))) {
      throw new ReleaseError(`${remote} has no earlier release to roll back to (active: ${state.active}).`, 409);
    }
  }
  if (target === state.active) throw new ReleaseError(`${target} is already the active release of ${remote}.`, 409);
  assertNotRolledBack(state, remote, target, opts.force);
  const after = await activate(opts, remote, target, 'rollback', opts.by, noteOf(opts), noCanary);
  return { remote, from: state.active, to: target, state: after };
}

/** Where a rollback goes by default: the release that was active before the current one became active. */
function rollbackTarget(state: RemoteState | undefined): string | null {
  if (!state) return null;
  return [...state.history].reverse().find((e) => e.id === state.active)?.from ?? null;
}

/**
 * Keeps the newest KEEP_RELEASES releases (chunks for visitors still on them), the active one, the canary, the one a
 * rollback returns to (uploads not activated may be newer than it) and `stored`, an upload just stored.
 */
export async function prune(
  at: StoreLocation,
  remote: string,
  log: (l: string) => void = () => {},
  stored?: string,
): Promise<string[]> {
  const state = at.manifests.read().manifest.remotes[remote];
  const keep = new Set([state?.active, state?.canary?.id, rollbackTarget(state), stored]);
  const removed = (await listReleases(at, remote))
    .slice(KEEP_RELEASES)
    .map((r) => r.id)
    .filter((id) => !keep.has(id));
  await at.files.remove(remote, removed);
  for (const id of removed) log(`${remote}: removed old release ${id}`);
  return removed;
}
