import { statSync } from 'node:fs';
import type { Logger } from 'pino';
import type { ServerEntry } from '@aitools/platform/contract';
import { watchReleaseFolders } from './folderWatch';
import { checkRelease, releaseCandidates } from './health';
import { type ManifestStore, type ManifestRead } from './manifest';
import { devRelease, storedRelease, publicRelease, type PublicRelease, type ResolvedRelease } from './layout';
import { readManifestChecked } from './manifestFile';

/** What a remote is served from right now. */
export type Served =
  | {
      remote: string;
      release: ResolvedRelease;
      public: PublicRelease;
      /** The manifest's active release, when a fallback serves instead (with why). */
      fallbackFrom?: { id: string; problem: string };
    }
  | { remote: string; release: null; active: string | null; problem: string };

export interface ReleaseServingOptions {
  releasesDir: string;
  remotes: readonly string[];
  devRemotes?: string[];
  logger?: Pick<Logger, 'error' | 'warn'>;
  /** Where the manifest lives (manifest.json in releasesDir by default; rows on Postgres). */
  manifests?: ManifestStore;
  /** Refills this instance's copy of a release that is missing or damaged (the release store's materialise): true
   *  when it is whole again. A release being fetched is passed over until then, so no page names files not here. */
  fetch?: (remote: string, id: string) => Promise<boolean>;
  /** Imports a release's server entry (ssr/serverEntries.ts; tests pass their own). */
  importEntry: (release: ResolvedRelease) => Promise<ServerEntry>;
  /** Watch the release folders for changes (default true; a one-shot command turns it off). */
  watch?: boolean;
  /** How often the choice is worked out again whatever the watch saw, in ms (default RECHECK_MS; 0: never). */
  recheckMs?: number;
  /** Told once when a remote's active release is found broken (a fallback serves instead, or nothing): pages kept
   *  elsewhere that name it must go (releases/releaseChange.ts). */
  onBroken?: (remote: string, release: string) => void;
}

/** A watch can miss an event, and some filesystems (network mounts) have none: the choice is worked out again this
 *  often all the same (some 20 `stat` calls each time). */
export const RECHECK_MS = 2000;

export interface ReleaseServing {
  /** The manifest read (validated, last-good when the file is bad); its problem is logged once per file state. */
  manifest(): ManifestRead;
  /** What a remote is served from, by what is known now (files, and server entries that failed to import).
   *  `pin`: a stored release to serve instead of the active one (a preview), when it is intact. */
  current(remote: string, pin?: string): Served;
  /** The same, after making sure the chosen release's server entry imports (within `waitMs`; a slower import
   *  leaves the choice as it is and the route's render budget deals with it). */
  resolve(remote: string, waitMs: number, pin?: string): Promise<Served>;
  /** The server entry of a release chosen by current/resolve. */
  entry(release: ResolvedRelease): Promise<ServerEntry>;
  /** For /api/health and `pnpm releases`. */
  health(): ReleasesHealth;
  /** Stops the watch and the re-check. */
  close(): void;
}

export interface ReleasesHealth {
  ok: boolean;
  manifest: { ok: boolean; problem?: string; servingFrom: ManifestRead['servingFrom'] };
  /** Only the remotes that are not served from their active release. */
  remotes: Record<string, { active: string | null; served: string | null; problem: string }>;
}

/** A server entry is keyed by its file's identity: a restored or replaced file is imported afresh. */
function readEntryKey(release: ResolvedRelease): string {
  try {
    const st = statSync(release.serverEntry);
    return `${release.serverEntry}|${st.ino}|${st.mtimeMs}|${st.size}`;
  } catch {
    return `${release.serverEntry}|missing`;
  }
}

type Intact = { releases: ResolvedRelease[]; active: string | null; activeProblem?: string };

/** What is known about the release files until one of them changes. */
interface Held {
  read?: ManifestRead;
  served: Map<string, Served>;
  intact: Map<string, Intact>;
  entryKeys: Map<string, string>;
}

/**
 * Chooses the release that serves each remote: the active one when intact, else the newest intact earlier one,
 * else none (the route answers 503 with the remote boundary). The choice is worked out from the files and held;
 * a request only looks it up. It is worked out again after a change: a watch on the release folders
 * (folderWatch.ts), a write through the manifest store (this process's, or on Postgres another instance's), a server
 * entry that failed to import, and every RECHECK_MS whatever the watch saw.
 */
export function createReleaseServing(opts: ReleaseServingOptions): ReleaseServing {
  const { releasesDir, remotes, devRemotes = [], logger } = opts;
  const imports = new Map<string, Promise<ServerEntry>>();
  const importFailures = new Map<string, string>();
  let reported: ManifestRead | null = null;
  const reportedRemote = new Map<string, string>();

  const readManifest = opts.manifests?.read ?? (() => readManifestChecked(releasesDir));
  const fetching = new Map<string, Promise<boolean>>();

  let held: Held | null = null;
  /** Forgets what is held: the next ask works the choice out again. */
  const stale = () => {
    held = null;
  };
  const folders =
    opts.watch === false
      ? null
      : watchReleaseFolders(
          releasesDir,
          remotes.filter((r) => !devRemotes.includes(r)),
          stale,
        );
  const recheckMs = opts.recheckMs ?? RECHECK_MS;
  const recheck = recheckMs > 0 ? setInterval(stale, recheckMs).unref() : null;
  opts.manifests?.onChange(stale);

  function hold(): Held {
    if (!held) {
      // Watched before the files are read: a change from here on is seen.
      folders?.rewatch();
      held = { served: new Map(), intact: new Map(), entryKeys: new Map() };
    }
    return held;
  }

  function entryKey(release: ResolvedRelease): string {
    const keys = hold().entryKeys;
    let key = keys.get(release.serverEntry);
    if (!key) keys.set(release.serverEntry, (key = readEntryKey(release)));
    return key;
  }

  function manifest(): ManifestRead {
    const h = hold();
    if (h.read) return h.read;
    const read = readManifest();
    if (!read.ok && read !== reported) {
      logger?.error(
        { problem: read.problem, servingFrom: read.servingFrom, fromLastGood: read.fromLastGood },
        'release manifest is bad; serving the last good state',
      );
    }
    reported = read;
    h.read = read;
    return read;
  }

  function entry(release: ResolvedRelease): Promise<ServerEntry> {
    const key = entryKey(release);
    let p = imports.get(key);
    if (!p) {
      p = opts.importEntry(release);
      p.catch((err: unknown) => {
        importFailures.set(key, `its server entry does not load (${(err as Error)?.name ?? 'Error'})`);
        stale();
        logger?.error(
          { err, remote: release.remote, release: release.id },
          'server entry of a release failed to import; that release is not served',
        );
      });
      imports.set(key, p);
    }
    return p;
  }

  /** Starts refilling a release's local copy (once at a time); the choice is worked out again when it is whole. */
  function refill(remote: string, id: string): void {
    const key = `${remote}/${id}`;
    if (!opts.fetch || fetching.has(key)) return;
    const work = opts
      .fetch(remote, id)
      .catch((err: unknown) => {
        logger?.error({ err, remote, release: id }, 'release files could not be fetched from the release store');
        return false;
      })
      .then((whole) => {
        fetching.delete(key);
        if (whole) stale();
        return whole;
      });
    fetching.set(key, work);
  }

  function report(served: Served): Served {
    // Passed over while its files are fetched: not a fault to report.
    const passedOver = served.release ? served.fallbackFrom?.id : served.active;
    if (passedOver && fetching.has(`${served.remote}/${passedOver}`)) return served;
    const problem = served.release ? served.fallbackFrom?.problem : served.problem;
    const key = problem ? `${served.release?.id ?? '-'}|${problem}` : '';
    if (key && reportedRemote.get(served.remote) !== key) {
      logger?.error(
        {
          remote: served.remote,
          served: served.release?.id ?? null,
          problem,
          ...(served.release ? { active: served.fallbackFrom?.id } : {}),
        },
        served.release
          ? 'active release of a remote is broken; serving an earlier release'
          : 'no intact release of a remote; its routes answer 503',
      );
      const broken = served.release ? served.fallbackFrom?.id : served.active;
      if (broken) opts.onBroken?.(served.remote, broken);
    }
    reportedRemote.set(served.remote, key);
    return served;
  }

  /** The candidates that pass the checks by files and known import failures, best first; `all`: every one (to try
   *  their imports in turn), else only the best. Held until something changes. */
  function intact(remote: string, all = false, pin?: string): Intact {
    const h = hold();
    const key = `${remote}|${pin ?? ''}|${all}`;
    let found = h.intact.get(key);
    if (!found) h.intact.set(key, (found = checkCandidates(remote, all, pin)));
    return found;
  }

  function checkCandidates(remote: string, all: boolean, pin?: string): Intact {
    if (devRemotes.includes(remote)) return { releases: [devRelease(remote)], active: 'dev' };
    if (pin) {
      // A previewed release stands in for the active one; should it not be intact, the usual choice serves.
      const check = checkRelease(releasesDir, remote, pin);
      if (!check.ok && check.kind !== 'contract') refill(remote, pin);
      const release = check.ok ? storedRelease(releasesDir, remote, pin, check.meta) : null;
      if (release && !importFailures.has(entryKey(release))) {
        const rest = all ? intact(remote, true).releases.filter((r) => r.id !== pin) : [];
        return { releases: [release, ...rest], active: pin };
      }
    }
    const read = manifest();
    const active = read.manifest.remotes[remote]?.active ?? null;
    const releases: ResolvedRelease[] = [];
    let activeProblem: string | undefined;
    for (const id of releaseCandidates(releasesDir, read.manifest, remote)) {
      const check = checkRelease(releasesDir, remote, id);
      if (!check.ok && check.kind !== 'contract') refill(remote, id);
      const release = check.ok ? storedRelease(releasesDir, remote, id, check.meta) : null;
      const problem = check.ok ? importFailures.get(entryKey(release!)) : check.problem;
      if (id === active) activeProblem = problem;
      if (!problem && release) {
        releases.push(release);
        if (!all) break;
      }
    }
    return { releases, active, activeProblem };
  }

  function served(remote: string, releases: ResolvedRelease[], active: string | null, activeProblem?: string): Served {
    const release = releases[0];
    if (!release)
      return {
        remote,
        release: null,
        active,
        problem: active
          ? `release ${active}: ${activeProblem ?? 'not intact'}; no intact earlier release`
          : 'no release is active',
      };
    return {
      remote,
      release,
      public: publicRelease(release),
      ...(active && release.id !== active
        ? { fallbackFrom: { id: active, problem: activeProblem ?? 'not intact' } }
        : {}),
    };
  }

  return {
    manifest,
    entry,
    current(remote, pin) {
      const h = hold();
      const key = `${remote}|${pin ?? ''}`;
      let chosen = h.served.get(key);
      if (!chosen) {
        const { releases, active, activeProblem } = intact(remote, false, pin);
        chosen = served(remote, releases, active, activeProblem);
        h.served.set(key, pin ? chosen : report(chosen));
      }
      return chosen;
    },
    async resolve(remote, waitMs, pin) {
      const deadline = Date.now() + waitMs;
      let chosen = intact(remote, true, pin);
      // The release asked for is being fetched: worth waiting for within the budget.
      const pending = fetching.get(`${remote}/${pin ?? chosen.active}`);
      if (pending && (await settleWithin(pending, waitMs)) === 'ok') chosen = intact(remote, true, pin);
      const { releases, active, activeProblem } = chosen;
      let problem = activeProblem;
      for (let i = 0; i < releases.length; i++) {
        const release = releases[i]!;
        const outcome = await settleWithin(entry(release), deadline - Date.now());
        if (outcome !== 'failed')
          return pin
            ? served(remote, releases.slice(i), active, problem)
            : report(served(remote, releases.slice(i), active, problem));
        if (release.id === active) problem = importFailures.get(entryKey(release));
      }
      return report(served(remote, [], active, problem));
    },
    health() {
      const read = manifest();
      const out: ReleasesHealth['remotes'] = {};
      for (const remote of remotes) {
        const s = this.current(remote);
        if (!s.release) out[remote] = { active: s.active, served: null, problem: s.problem };
        else if (s.fallbackFrom)
          out[remote] = { active: s.fallbackFrom.id, served: s.release.id, problem: s.fallbackFrom.problem };
      }
      return {
        ok: read.ok && Object.keys(out).length === 0,
        manifest: { ok: read.ok, ...(read.problem ? { problem: read.problem } : {}), servingFrom: read.servingFrom },
        remotes: out,
      };
    },
    close() {
      if (recheck) clearInterval(recheck);
      folders?.close();
    },
  };
}

/** 'ok', 'failed', or 'pending' when the promise did not settle within `ms`. */
async function settleWithin(p: Promise<unknown>, ms: number): Promise<'ok' | 'failed' | 'pending'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const pending = new Promise<'pending'>((r) => (timer = setTimeout(() => r('pending'), Math.max(0, ms))));
  try {
    return await Promise.race([
      p.then(
        () => 'ok' as const,
        () => 'failed' as const,
      ),
      pending,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
