/**
 * What a change of a remote's served release purges from the shared caches (edge/purges.ts): the pages of each
 * release that no longer serves its side (the active one's for everyone, a canary's for its visitors), and the
 * canary sides when a canary starts, changes or ends. Starting a canary leaves the stable pages cached.
 *
 * The manifest (a file, or rows) and the purge queue are not written in one transaction. So each remote has a mark in
 * the database, the state its purges were last queued for, written in the same transaction as those purges: a change
 * is purged by comparing the manifest with the mark, after the change and at every start. A process that stopped
 * between writing a change and queuing its purges leaves the mark behind, and the next start queues them.
 */
import type { DB } from '../db/connection';
import type { EdgeReleaseMarksTable } from '../db/schema';
import type { RemoteState } from './manifest';
import { RECHECK_MS } from './serving';
import { releaseKey, SIDES_KEY } from '../edge/headers';
import { PURGE_POLL_MS, queuePurge } from '../edge/purges';

/** Every instance has seen a release change by then (releases/serving.ts re-checks every RECHECK_MS). */
export const RELEASE_SEEN_MS = RECHECK_MS + PURGE_POLL_MS;

export function purgeKeysOfChange(remote: string, before?: RemoteState, after?: RemoteState): string[] {
  const keys: string[] = [];
  if (before?.active && before.active !== after?.active) keys.push(releaseKey(remote, before.active));
  if (before?.canary && before.canary.id !== after?.canary?.id) keys.push(releaseKey(remote, before.canary.id));
  if (before?.canary?.id !== after?.canary?.id || before?.canary?.percent !== after?.canary?.percent)
    keys.push(SIDES_KEY);
  return keys;
}

type Mark = Omit<EdgeReleaseMarksTable, 'remote'>;

/** The keys that bring the caches from what `mark` says they were told to the remote's `state`: the difference of
 *  the two, and every release that served in the events since the mark and serves no more. */
export function purgeKeysSince(remote: string, mark: Mark | undefined, state: RemoteState): string[] {
  const told = mark && {
    active: mark.active,
    ...(mark.canary ? { canary: { id: mark.canary, percent: mark.percent ?? 0, since: '', by: '' } } : {}),
    history: [],
  };
  const keys = new Set(purgeKeysOfChange(remote, told, state));
  const serving = new Set([state.active, state.canary?.id]);
  for (const event of state.history.slice(mark?.events ?? 0))
    for (const id of [event.id, event.from]) if (id && !serving.has(id)) keys.add(releaseKey(remote, id));
  return [...keys];
}

/** Queues the purges that bring the caches to the remote's `state`, and moves its mark there, in one transaction. A
 *  state a moment old (another instance's change not loaded here yet) purges more than needed and moves the mark
 *  back: that change was purged by the instance that made it, and the next comparison covers it again. */
export async function queueReleasePurges(db: DB, remote: string, state: RemoteState | undefined): Promise<void> {
  if (!state) return;
  await db.transaction().execute(async (trx) => {
    const mark = await trx
      .selectFrom('edge_release_marks')
      .select(['active', 'canary', 'percent', 'events'])
      .where('remote', '=', remote)
      .executeTakeFirst();
    const keys = purgeKeysSince(remote, mark, state);
    if (keys.length) await queuePurge(trx, keys, { againAfterMs: RELEASE_SEEN_MS });
    const next = {
      active: state.active,
      canary: state.canary?.id ?? null,
      percent: state.canary?.percent ?? null,
      events: state.history.length,
    };
    await trx
      .insertInto('edge_release_marks')
      .values({ remote, ...next })
      .onConflict((oc) => oc.column('remote').doUpdateSet(next))
      .execute();
  });
}

/** Runs a change of a remote's releases, then queues the purges it calls for, from the state the change left. */
export async function purgingChange<T extends { state: RemoteState | undefined }>(
  db: DB,
  remote: string,
  change: () => Promise<T>,
): Promise<T> {
  const result = await change();
  await queueReleasePurges(db, remote, result.state);
  return result;
}
