/**
 * Automatic rollback: during a canary, and for a window after a release is activated for everyone, the new
 * release's error rate (errors per page view, signals.ts) is compared with the stable release's. A clearly worse
 * release with enough samples is rolled back: a canary is aborted, a full activation rolled back to the release
 * before it. The history entry and the audit trail (console_audit, actor "automatic") say why with the numbers
 * ("automatic rollback: ..."), and the release is not made active again except by a person (store.ts, force). Of
 * several instances, the first write wins (the state is checked again under the manifest lock).
 */
import type { Logger } from 'pino';
import type { RollbackRule } from '../config';
import type { DB } from '../db/connection';
import { auditRelease } from './actions';
import { type ManifestStore, AUTOMATIC_ACTOR, type RemoteState } from './manifest';
import type { ReleaseCounts, Signals } from './signals';
import { rollBackAutomatically } from './store';

/** A judgement: whether to roll back, and why (with the numbers) either way. */
export interface Verdict {
  rollBack: boolean;
  reason: string;
}

type Rated = Pick<ReleaseCounts, 'views' | 'errors'>;
const pct = (c: Rated) => (c.views ? (c.errors / c.views) * 100 : 0);
const fmt = (c: Rated) => `${pct(c).toFixed(1)}% (${c.errors} errors in ${c.views} views)`;
/** Only the server's own errors (render failures, breaker openings). */
const serverOnly = (c: ReleaseCounts): Rated => ({ views: c.views, errors: c.serverErrors });

/** Whether to roll back: never on too few samples; visitors' reports only from enough distinct sources. */
export function judge(fresh: ReleaseCounts, stable: ReleaseCounts, rule: RollbackRule): Verdict {
  const keep = (reason: string): Verdict => ({ rollBack: false, reason });
  if (fresh.views < rule.minViews) return keep(`too few page views to judge (${fresh.views} of ${rule.minViews})`);
  const { visitors, networks } = fresh.sources;
  const sourced = visitors >= rule.minVisitors && networks >= rule.minNetworks;
  const sources = `${visitors} distinct visitors from ${networks} networks`;
  // Without enough distinct sources, visitors' reports do not count: the server's own errors are judged alone.
  const [a, b] = sourced ? [fresh, stable] : [serverOnly(fresh), serverOnly(stable)];
  const unsourced = sourced
    ? ''
    : `; visitors' reports not counted (${sources}, fewer than ${rule.minVisitors} visitors from ${rule.minNetworks} networks)`;
  if (a.errors < rule.minErrors) return keep(`too few errors to judge (${a.errors} of ${rule.minErrors})${unsourced}`);
  const worse = pct(a) > pct(b) * rule.ratio && pct(a) - pct(b) > rule.minDiffPoints;
  const compared = `error rate ${fmt(a)} against ${fmt(b)} for the stable release`;
  if (!worse) return keep(`${compared}: not clearly worse${unsourced}`);
  return {
    rollBack: true,
    reason: `${compared} (more than ${rule.ratio}x and ${rule.minDiffPoints} points worse), ${sourced ? `reported by ${sources}` : `from the server's own errors${unsourced}`}`,
  };
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

/** This instance's latest judgement of a watched release: when, on which counts, and its outcome. */
export interface LastCheck extends Verdict {
  at: string;
  fresh: string;
  freshCounts: ReleaseCounts;
  stableCounts: ReleaseCounts;
}

export interface RollbackMonitor {
  /** One pass over every remote; returns the rollbacks it made. */
  check(): Promise<{ remote: string; release: string; note: string }[]>;
  /** What is watched now, with counts (for `pnpm releases` and the release API), and this instance's latest
   *  judgement of it. */
  report(remote: string): Promise<(WatchReport & { lastCheck?: LastCheck }) | null>;
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
  /** Where the audit row of each rollback goes (content/audit.ts), as for a person's. */
  db?: DB;
  /** Told after a rollback it wrote, with the remote's state before and after (releases/releaseChange.ts). */
  rolledBack?: (remote: string, before: RemoteState | undefined, after: RemoteState | undefined) => Promise<void>;
}): RollbackMonitor {
  const { manifests, signals, rule, logger } = opts;
  const stateOf = (remote: string) => manifests.read().manifest.remotes[remote];
  let running = false;
  const lastChecks = new Map<string, LastCheck>();

  const check: RollbackMonitor['check'] = async () => {
    const done: { remote: string; release: string; note: string }[] = [];
    for (const remote of opts.remotes) {
      const before = stateOf(remote);
      const watch = watchOf(remote, before, rule);
      if (!watch) continue;
      const at = new Date().toISOString(); // when the counts were read: everything before it is in them
      const counts = await countsOf(watch, signals);
      const verdict = judge(counts.freshCounts, counts.stableCounts, rule);
      lastChecks.set(remote, {
        at,
        fresh: watch.fresh,
        ...verdict,
        freshCounts: counts.freshCounts,
        stableCounts: counts.stableCounts,
      });
      if (!verdict.rollBack) continue;
      const note = `automatic rollback: ${watch.kind === 'canary' ? 'canary' : 'release'} ${watch.fresh} of ${remote}, ${verdict.reason}`;
      const wrote = await rollBackAutomatically(remote, watch.fresh, {
        manifests,
        note,
        ...(watch.kind === 'activation' ? { to: watch.stable } : {}),
      });
      if (!wrote) continue; // another instance (or a person) acted first
      if (opts.db) {
        const caller = { db: opts.db, actor: AUTOMATIC_ACTOR, by: AUTOMATIC_ACTOR, reason: verdict.reason };
        // The rollback stands even if its row cannot be written: the history holds it too.
        await (
          watch.kind === 'canary'
            ? auditRelease(caller, 'abort', remote, `canary ${watch.fresh} ended; active ${watch.stable}`)
            : auditRelease(caller, 'rollback', remote, `${watch.fresh} -> ${watch.stable}`)
        ).catch((err: unknown) => logger.warn({ err, remote }, 'the automatic rollback could not be audited'));
      }
      await opts.rolledBack?.(remote, before, stateOf(remote));
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
      if (!watch) return null;
      const last = lastChecks.get(remote);
      return { ...(await countsOf(watch, signals)), ...(last?.fresh === watch.fresh ? { lastCheck: last } : {}) };
    },
    stop: () => timer && clearInterval(timer),
  };
}
