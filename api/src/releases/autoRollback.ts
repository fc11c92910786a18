/**
 * Automatic rollback: during a canary, and for a window after a release is activated for everyone, the new
 * release's error rate (errors per page view, signals.ts) is compared with the stable release's. A clearly worse
 * release with enough samples is rolled back: a canary is aborted, a full activation rolled back to the release
 * before it. The history entry says why with the numbers ("automatic rollback: ..."), and the release is not made
 * active again except by a person (store.ts, force). Of several instances, the first write wins (the state is
 * checked again under the manifest lock).
 */
import type { Logger } from 'pino';
import type { ManifestStore } from './manifestStore';
import { AUTOMATIC_ACTOR, type RemoteState } from './manifest';
import type { ReleaseCounts, Signals } from './signals';
import { rollBackAutomatically } from './store';

export interface RollbackRule {
  /** Page views the new release needs before it is judged. */
  minViews: number;
  /** Errors the new release needs before it is judged. */
  minErrors: number;
  /** Its error rate must be more than this many times the stable one's ... */
  ratio: number;
  /** ... and higher by more than this many percentage points. */
  minDiffPoints: number;
  /** How long after a full activation the release is still watched. */
  windowMs: number;
}

const pct = (c: ReleaseCounts) => (c.views ? (c.errors / c.views) * 100 : 0);
const fmt = (c: ReleaseCounts) => `${pct(c).toFixed(1)}% (${c.errors} errors in ${c.views} views)`;

/** The reason to roll back, or null: never on too few samples. */
export function judge(fresh: ReleaseCounts, stable: ReleaseCounts, rule: RollbackRule): string | null {
  if (fresh.views < rule.minViews || fresh.errors < rule.minErrors) return null;
  const a = pct(fresh);
  const b = pct(stable);
  if (a <= b * rule.ratio || a - b <= rule.minDiffPoints) return null;
  return `error rate ${fmt(fresh)} against ${fmt(stable)} for the stable release (more than ${rule.ratio}x and ${rule.minDiffPoints} points worse)`;
}

/** What is being watched for a remote now: the new release, the stable one, and since when. */
export interface Watch {
  remote: string;
  kind: 'canary' | 'activation';
  fresh: string;
  stable: string;
  sinceMs: number;
}

export function watchOf(
  remote: string,
  state: RemoteState | undefined,
  rule: RollbackRule,
  now = Date.now(),
): Watch | null {
  if (!state) return null;
  if (state.canary)
    return {
      remote,
      kind: 'canary',
      fresh: state.canary.id,
      stable: state.active,
      sinceMs: Date.parse(state.canary.since),
    };
  const last = state.history.at(-1);
  if (
    !last ||
    last.by === AUTOMATIC_ACTOR ||
    !['release', 'promote'].includes(last.action) ||
    !last.from ||
    last.id !== state.active
  )
    return null;
  const since = Date.parse(last.at);
  // Judged from its activation (or promotion) until the window ends.
  if (now - since > rule.windowMs) return null;
  return { remote, kind: 'activation', fresh: last.id, stable: last.from, sinceMs: since };
}

export interface WatchReport extends Watch {
  freshCounts: ReleaseCounts;
  stableCounts: ReleaseCounts;
}

/** The counts a watch compares: both over the same window (after a full activation the stable release serves no one,
 *  so its window is the same length just before the activation). */
export async function countsOf(w: Watch, signals: Signals, now = Date.now()): Promise<WatchReport> {
  const freshCounts = await signals.counts(w.remote, w.fresh, w.sinceMs, now);
  const stableCounts =
    w.kind === 'canary'
      ? await signals.counts(w.remote, w.stable, w.sinceMs, now)
      : await signals.counts(w.remote, w.stable, w.sinceMs - (now - w.sinceMs) - 60_000, w.sinceMs);
  return { ...w, freshCounts, stableCounts };
}

export interface RollbackMonitor {
  /** One pass over every remote; returns the rollbacks it made. */
  check(): Promise<{ remote: string; release: string; note: string }[]>;
  /** What is watched now, with counts (for `pnpm releases`). */
  report(remote: string): Promise<WatchReport | null>;
  stop(): void;
}

export function createRollbackMonitor(opts: {
  manifests: ManifestStore;
  releasesDir: string;
  signals: Signals;
  rule: RollbackRule;
  /** How often to check (0: only when asked). */
  everyMs: number;
  remotes: readonly string[];
  logger: Pick<Logger, 'error' | 'warn'>;
}): RollbackMonitor {
  const { manifests, signals, rule, logger } = opts;
  const stateOf = (remote: string) => manifests.read().manifest.remotes[remote];
  let running = false;

  const check: RollbackMonitor['check'] = async () => {
    const done: { remote: string; release: string; note: string }[] = [];
    for (const remote of opts.remotes) {
      const watch = watchOf(remote, stateOf(remote), rule);
      if (!watch) continue;
      const counts = await countsOf(watch, signals);
      const why = judge(counts.freshCounts, counts.stableCounts, rule);
      if (!why) continue;
      const note = `automatic rollback: ${watch.kind === 'canary' ? 'canary' : 'release'} ${watch.fresh} of ${remote}, ${why}`;
      const wrote = await rollBackAutomatically(remote, watch.fresh, {
        releasesDir: opts.releasesDir,
        manifests,
        note,
        ...(watch.kind === 'activation' ? { to: watch.stable } : {}),
      });
      if (!wrote) continue; // another instance (or a person) acted first
      logger.error(
        {
          remote,
          release: watch.fresh,
          stable: watch.stable,
          fresh: counts.freshCounts,
          stableCounts: counts.stableCounts,
        },
        note,
      );
      done.push({ remote, release: watch.fresh, note });
    }
    return done;
  };

  const timer = opts.everyMs
    ? setInterval(() => {
        if (running) return;
        running = true;
        check()
          .catch((err: unknown) => logger.warn({ err }, 'automatic rollback check failed; trying again'))
          .finally(() => (running = false));
      }, opts.everyMs)
    : null;
  timer?.unref();

  return {
    check,
    async report(remote) {
      const watch = watchOf(remote, stateOf(remote), rule);
      return watch ? countsOf(watch, signals) : null;
    },
    stop: () => timer && clearInterval(timer),
  };
}
