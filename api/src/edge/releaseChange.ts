/**
 * What a change of a remote's served release purges from the shared caches (edge/purges.ts): the pages of each
 * release that no longer serves its side (the active one's for everyone, a canary's for its visitors), and the
 * canary sides when a canary starts, changes or ends. Starting a canary leaves the stable pages cached.
 */
import type { DB } from '../db/connection';
import type { RemoteState } from '../releases/manifest';
import { fileManifestStore } from '../releases/manifestStore';
import type { StoreLocation } from '../releases/store';
import { releaseKey, SIDES_KEY } from './headers';
import { queuePurge } from './purges';

export function purgeKeysOfChange(remote: string, before?: RemoteState, after?: RemoteState): string[] {
  const keys: string[] = [];
  if (before?.active && before.active !== after?.active) keys.push(releaseKey(remote, before.active));
  if (before?.canary && before.canary.id !== after?.canary?.id) keys.push(releaseKey(remote, before.canary.id));
  if (before?.canary?.id !== after?.canary?.id || before?.canary?.percent !== after?.canary?.percent)
    keys.push(SIDES_KEY);
  return keys;
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
  const keys = purgeKeysOfChange(remote, before, stateOf());
  if (keys.length) await queuePurge(db, keys);
  return result;
}
