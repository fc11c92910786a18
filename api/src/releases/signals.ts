/**
 * Per-release signals: page views (the denominator) and errors, from visitors' browsers (the shell's beacons to
 * POST /api/signals) and from the server itself (render failures, breaker openings). Counted in memory per
 * (remote, release, kind, minute) and added to the release_signals table every few seconds, so every instance on one
 * Postgres sees the same totals; so are the reports refused (kind "refused:<reason>") and the distinct sources behind
 * visitors' reports (release_signal_sources: hashed visitor and network per release and minute). Bounded: a beacon
 * names a release that exists, the keys held in memory are capped, and rows older than the retention window are
 * deleted.
 */
import express, { Router, type RequestHandler } from 'express';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Logger } from 'pino';
import type { DB } from '../db/connection';
import { failure } from '@aitools/contracts/answers';
import { REMOTE_NAMES } from '../paths';
import { RELEASE_ID } from './manifest';
import type { ReleaseStore } from './releaseStore';
import type { Refusal, SignalTokens, Source } from './signalTokens';

/** What a visitor's browser reports (shell/src/remotes/signals.ts). */
export const VISITOR_KINDS = ['load-error', 'boundary', 'hydration', 'unhandled'] as const;
/** What the server reports about its own renders. */
export const SERVER_KINDS = ['render-failure', 'breaker-open'] as const;
export const ERROR_KINDS = [...VISITOR_KINDS, ...SERVER_KINDS] as const;
export type SignalKind = 'view' | (typeof ERROR_KINDS)[number] | `refused:${Refusal}`;
const REFUSED = 'refused:';

export interface SignalOptions {
  /** How often counts are added to the database. */
  flushMs: number;
  /** Rows older than this are deleted. */
  retentionMs: number;
  /** Distinct (remote, release, kind, minute) keys held between flushes, and as many sources; beyond it counts are
   *  dropped (and counted). */
  maxKeys: number;
  logger?: Pick<Logger, 'warn'>;
}

export interface ReleaseCounts {
  views: number;
  /** Error reports of every kind, the visitors' and the server's. */
  errors: number;
  /** The server's own (render failures, breaker openings): trusted as they are. */
  serverErrors: number;
  byKind: Record<string, number>;
  /** Distinct visitors and networks behind the visitors' reports. */
  sources: { visitors: number; networks: number };
  /** Reports refused, by reason. */
  refused: Record<string, number>;
}

export interface Signals {
  count(remote: string, release: string, kind: SignalKind, n?: number): void;
  /** Notes the source of an accepted visitor report. */
  source(remote: string, release: string, source: Source): void;
  /** Adds the counts held in memory to the database. */
  flush(): Promise<void>;
  /** Views, errors and sources of a release between two times (ms; all instances, as flushed), after flushing
   *  this one's. */
  counts(remote: string, release: string, fromMs: number, toMs?: number): Promise<ReleaseCounts>;
  /** Counts dropped because the memory cap was reached. */
  dropped(): number;
  close(): Promise<void>;
}

const minuteOf = (ms: number) => Math.floor(ms / 60_000);
const SERVER_KIND_SET = new Set<string>(SERVER_KINDS);

export function createSignals(db: DB, opts: SignalOptions): Signals {
  let pending = new Map<string, number>();
  let sources = new Map<string, Source & { remote: string; release: string; minute: number }>();
  let dropped = 0;
  let flushing: Promise<void> = Promise.resolve();

  const write = async (batch: Map<string, number>, seen: typeof sources) => {
    for (const [key, n] of batch) {
      const [remote, release_id, kind, minute] = key.split('\u0000') as [string, string, string, string];
      // One row per key; a second instance or a later flush adds to it.
      await db
        .insertInto('release_signals')
        .values({ remote, release_id, kind, minute: Number(minute), count: n })
        .onConflict((oc) =>
          oc
            .columns(['remote', 'release_id', 'kind', 'minute'])
            .doUpdateSet({ count: sql`release_signals.count + excluded.count` }),
        )
        .execute();
    }
    for (const s of seen.values())
      await db
        .insertInto('release_signal_sources')
        .values({ remote: s.remote, release_id: s.release, minute: s.minute, visitor: s.visitor, network: s.network })
        .onConflict((oc) => oc.columns(['remote', 'release_id', 'minute', 'visitor']).doNothing())
        .execute();
    const old = minuteOf(Date.now() - opts.retentionMs);
    await db.deleteFrom('release_signals').where('minute', '<', old).execute();
    await db.deleteFrom('release_signal_sources').where('minute', '<', old).execute();
  };

  const flush = () => {
    const batch = pending;
    const seen = sources;
    pending = new Map();
    sources = new Map();
    // One flush at a time, in order; a failed one is logged and its counts lost (they are signals, not records).
    flushing = flushing.then(() =>
      batch.size || seen.size
        ? write(batch, seen).catch((err: unknown) => opts.logger?.warn({ err }, 'release signals could not be written'))
        : undefined,
    );
    return flushing;
  };
  const timer = setInterval(() => void flush(), opts.flushMs);
  timer.unref();

  return {
    count(remote, release, kind, n = 1) {
      const key = `${remote}\u0000${release}\u0000${kind}\u0000${minuteOf(Date.now())}`;
      const had = pending.get(key);
      if (had === undefined && pending.size >= opts.maxKeys) {
        dropped += n;
        return;
      }
      pending.set(key, (had ?? 0) + n);
    },
    source(remote, release, source) {
      const minute = minuteOf(Date.now());
      const key = `${remote}\u0000${release}\u0000${minute}\u0000${source.visitor}`;
      if (sources.has(key)) return;
      if (sources.size >= opts.maxKeys) return void dropped++;
      sources.set(key, { ...source, remote, release, minute });
    },
    flush,
    async counts(remote, release, fromMs, toMs = Date.now()) {
      await flush();
      const rows = await db
        .selectFrom('release_signals')
        .select(['kind', (eb) => eb.fn.sum<string | number>('count').as('n')])
        .where('remote', '=', remote)
        .where('release_id', '=', release)
        .where('minute', '>=', minuteOf(fromMs))
        .where('minute', '<=', minuteOf(toMs))
        .groupBy('kind')
        .execute();
      const distinct = await db
        .selectFrom('release_signal_sources')
        .select((eb) => [
          eb.fn.count<string | number>('visitor').distinct().as('visitors'),
          eb.fn.count<string | number>('network').distinct().as('networks'),
        ])
        .where('remote', '=', remote)
        .where('release_id', '=', release)
        .where('minute', '>=', minuteOf(fromMs))
        .where('minute', '<=', minuteOf(toMs))
        .executeTakeFirst();
      const out: ReleaseCounts = {
        views: 0,
        errors: 0,
        serverErrors: 0,
        byKind: {},
        sources: { visitors: Number(distinct?.visitors ?? 0), networks: Number(distinct?.networks ?? 0) },
        refused: {},
      };
      for (const r of rows) {
        const n = Number(r.n);
        if (r.kind.startsWith(REFUSED)) {
          out.refused[r.kind.slice(REFUSED.length)] = n;
          continue;
        }
        out.byKind[r.kind] = n;
        if (r.kind === 'view') out.views = n;
        else out.errors += n;
        if (SERVER_KIND_SET.has(r.kind)) out.serverErrors += n;
      }
      return out;
    },
    dropped: () => dropped,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}

/** A beacon: exactly these fields, each bounded (no URL, nothing about the visitor but what the server sees). */
export const beaconSchema = z
  .object({
    remote: z.enum(REMOTE_NAMES as unknown as [string, ...string[]]),
    release: z.string().regex(RELEASE_ID),
    kind: z.enum(VISITOR_KINDS),
    /** The route's pattern (e.g. /blog/:slug), never the address. */
    route: z
      .string()
      .max(120)
      .regex(/^\/[\w/:*.-]*$/),
    /** A short hash of the error message (groups reports without carrying the text). */
    hash: z.string().regex(/^[0-9a-f]{8}$/),
    /** The token the page named for this remote (signalTokens.ts); checked below, so a report without one is
     *  refused with its reason rather than as a malformed body. */
    token: z.string().max(64).optional(),
  })
  .strict();
export type Beacon = z.infer<typeof beaconSchema>;

/** Largest beacon body read. */
const BEACON_BYTES = 1024;

const REFUSAL_ANSWERS: Record<Refusal, [number, string]> = {
  missing: [403, 'A report needs the token its page named for this remote.'],
  invalid: [403, 'This token was not issued for this remote and release.'],
  expired: [403, 'This token has expired: reports are taken for a while after the page was served.'],
  spent: [429, 'This page has reported all the errors it may.'],
  capped: [429, 'This address or its network has reported all the errors it may for this release.'],
  'rate-limited': [429, 'Too many reports from this address.'],
};

/** POST /api/signals: a beacon from the shell (sendBeacon sends text/plain; JSON is taken as well). Counted only
 *  with a valid token for its remote and release, within the per-address limit, the token's own and the source's
 *  per release (signalTokens.ts). */
export function signalsRouter(opts: {
  signals: Signals;
  tokens: SignalTokens;
  /** Where releases are stored (a report of a release not stored is refused). */
  files: Pick<ReleaseStore, 'meta'>;
  limit: RequestHandler;
  onReport?: (b: Beacon) => void;
  onRefused?: (b: Beacon, reason: Refusal) => void;
}): Router {
  const router = Router();
  // Release ids are never reused: one found stays known (on Postgres, one lookup per release and instance).
  const known = new Set<string>();
  const exists = async (remote: string, id: string) => {
    if (known.has(`${remote}/${id}`)) return true;
    const found = Boolean(await opts.files.meta(remote, id));
    if (found) known.add(`${remote}/${id}`);
    return found;
  };
  const refuse = (b: Beacon, reason: Refusal) => {
    opts.signals.count(b.remote, b.release, `refused:${reason}`);
    opts.onRefused?.(b, reason);
  };
  router.post(
    '/api/signals',
    express.text({ type: () => true, limit: BEACON_BYTES }),
    (req, res, next) => {
      let json: unknown;
      try {
        json = JSON.parse(typeof req.body === 'string' ? req.body : '');
      } catch {
        return void res
          .status(400)
          .json(failure('Send one report as JSON: { remote, release, kind, route, hash, token }.'));
      }
      const beacon = beaconSchema.safeParse(json);
      if (!beacon.success) {
        const issue = beacon.error.issues[0];
        const field = issue?.code === 'unrecognized_keys' ? issue.keys.join(', ') : String(issue?.path[0] ?? 'body');
        return void res.status(400).json(failure('Not a valid report.', { [field]: issue?.message ?? 'invalid' }));
      }
      const b = beacon.data;
      res.locals.beacon = b;
      // The per-address limit answers 429 itself: counted as refused once it has, for a release known to exist (a
      // made-up id adds no keys).
      res.once('finish', () => {
        if (res.statusCode === 429 && !res.locals.refused && known.has(`${b.remote}/${b.release}`))
          refuse(b, 'rate-limited');
      });
      next();
    },
    // Before the release lookup: made-up ids cost a lookup each (a disk read, or a query on Postgres).
    opts.limit,
    async (req, res) => {
      const b = res.locals.beacon as Beacon;
      // Only releases that exist are counted: a made-up id cannot add keys.
      if (!(await exists(b.remote, b.release)))
        return void res.status(422).json(failure(`No release ${b.release} of ${b.remote}.`));
      const source = opts.tokens.source(req.ip ?? req.socket.remoteAddress ?? '');
      const refusal =
        opts.tokens.verify(b.token, b.remote, b.release) ??
        (!opts.tokens.spend(b.token!, source) ? 'spent' : null) ??
        (!opts.tokens.claimError(b.remote, b.release, source) ? 'capped' : null);
      if (refusal) {
        res.locals.refused = true;
        refuse(b, refusal);
        const [status, message] = REFUSAL_ANSWERS[refusal];
        return void res.status(status).json(failure(message, { token: refusal }));
      }
      opts.signals.count(b.remote, b.release, b.kind);
      opts.signals.source(b.remote, b.release, source);
      opts.onReport?.(b);
      res.sendStatus(204);
    },
  );
  return router;
}
