/**
 * What a change of a remote's served release purges from the shared caches (edge/purges.ts): the pages of each
 * release that no longer serves its side (the active one's for everyone, a canary's for its visitors), and the
 * canary sides when a canary starts, changes or ends. Starting a canary leaves the stable pages cached.
 */
import type { DB } from '../db/connection';
import type { RemoteState } from '../releases/manifest';
import { fileManifestStore } from '../releases/manifestStore';
import type { StoreLocation } from '../releases/store';
import { RECHECK_MS } from '../releases/serving';
import { releaseKey, SIDES_KEY } from './headers';
import { PURGE_POLL_MS, queuePurge } from './purges';

/** Every instance has seen a release change by then (releases/serving.ts re-checks every RECHECK_MS). */
export const RELEASE_SEEN_MS = RECHECK_MS + PURGE_POLL_MS;

export function purgeKeysOfChange(remote: string, before?: RemoteState, after?: RemoteState): string[] {
  const keys: string[] = [];
  if (before?.active && before.active !== after?.active) keys.push(releaseKey(remote, before.active));
  // The release the change replaced, as written under the writers' lock: `before` may be a moment old on Postgres
  // (another instance's change not loaded yet).
  const from = after?.history.at(-1)?.from;
  if (from && from !== after?.active && from !== before?.active) keys.push(releaseKey(remote, from));
  if (before?.canary && before.canary.id !== after?.canary?.id) keys.push(releaseKey(remote, before.canary.id));
  if (before?.canary?.id !== after?.canary?.id || before?.canary?.percent !== after?.canary?.percent)
    keys.push(SIDES_KEY);
  return keys;
}

/** Queues the purges a change of a remote's releases calls for. */
export async function queueReleasePurges(
  db: DB,
  remote: string,
  before: RemoteState | undefined,
  after: RemoteState | undefined,
): Promise<void> {
  const keys = purgeKeysOfChange(remote, before, after);
  if (keys.length) await queuePurge(db, keys, { againAfterMs: RELEASE_SEEN_MS });
}

/** Runs a change of a remote's releases, then queues the purges it calls for. */
export async function purgingChange<T>(
  at: StoreLocation,
  remote: string,
  db: DB,
  change: () => Promise<T>,
): Promise<T> {
  const manifests = at.manifests ?? fileManifestStore(at.releasesDir);
  const stateOf = () => manifests.read().manifest.remotes[remote];
  const before = stateOf();
  const result = await change();
  await queueReleasePurges(db, remote, before, stateOf());
  return result;
}
