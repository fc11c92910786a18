/**
 * Per-release signals: page views (the denominator) and errors, from visitors' browsers (the shell's beacons to
 * POST /api/signals) and from the server itself (render failures, breaker openings). Counted in memory per
 * (remote, release, kind, minute) and added to the release_signals table every few seconds, so every instance on one
 * Postgres sees the same totals. Bounded: a beacon names a release that exists, the keys held in memory are capped,
 * and rows older than the retention window are deleted.
 */
import express, { Router, type RequestHandler } from 'express';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Logger } from 'pino';
import type { DB } from '../db/connection';
import { failure } from '@aitools/contracts/answers';
import { REMOTE_NAMES } from '../paths';
import { RELEASE_ID, readReleaseMeta } from './manifest';

/** What a visitor's browser reports (shell/src/remotes/signals.ts). */
export const VISITOR_KINDS = ['load-error', 'boundary', 'hydration', 'unhandled'] as const;
/** What the server reports about its own renders. */
export const SERVER_KINDS = ['render-failure', 'breaker-open'] as const;
export const ERROR_KINDS = [...VISITOR_KINDS, ...SERVER_KINDS] as const;
export type SignalKind = 'view' | (typeof ERROR_KINDS)[number];

export interface SignalOptions {
  /** How often counts are added to the database. */
  flushMs: number;
  /** Rows older than this are deleted. */
  retentionMs: number;
  /** Distinct (remote, release, kind, minute) keys held between flushes; beyond it counts are dropped (and counted). */
  maxKeys: number;
  logger?: Pick<Logger, 'warn'>;
}

export interface ReleaseCounts {
  views: number;
  errors: number;
  byKind: Record<string, number>;
}

export interface Signals {
  count(remote: string, release: string, kind: SignalKind, n?: number): void;
  /** Adds the counts held in memory to the database. */
  flush(): Promise<void>;
  /** Views and errors of a release between two times (ms; all instances, as flushed), after flushing this one's. */
  counts(remote: string, release: string, fromMs: number, toMs?: number): Promise<ReleaseCounts>;
  /** Counts dropped because the memory cap was reached. */
  dropped(): number;
  close(): Promise<void>;
}

const minuteOf = (ms: number) => Math.floor(ms / 60_000);

export function createSignals(db: DB, opts: SignalOptions): Signals {
  let pending = new Map<string, number>();
  let dropped = 0;
  let flushing: Promise<void> = Promise.resolve();

  const write = async (batch: Map<string, number>) => {
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
    await db
      .deleteFrom('release_signals')
      .where('minute', '<', minuteOf(Date.now() - opts.retentionMs))
      .execute();
  };

  const flush = () => {
    const batch = pending;
    pending = new Map();
    // One flush at a time, in order; a failed one is logged and its counts lost (they are signals, not records).
    flushing = flushing.then(() =>
      batch.size
        ? write(batch).catch((err: unknown) => opts.logger?.warn({ err }, 'release signals could not be written'))
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
      const byKind: Record<string, number> = {};
      for (const r of rows) byKind[r.kind] = Number(r.n);
      const views = byKind.view ?? 0;
      const errors = Object.entries(byKind).reduce((sum, [k, n]) => (k === 'view' ? sum : sum + n), 0);
      return { views, errors, byKind };
    },
    dropped: () => dropped,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}

/** A beacon: exactly these fields, each bounded (no URL, nothing about the visitor). */
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
  })
  .strict();
export type Beacon = z.infer<typeof beaconSchema>;

/** Largest beacon body read. */
const BEACON_BYTES = 1024;

/** POST /api/signals: a beacon from the shell (sendBeacon sends text/plain; JSON is taken as well). */
export function signalsRouter(opts: {
  signals: Signals;
  releasesDir: string;
  limit: RequestHandler;
  onReport?: (b: Beacon) => void;
}): Router {
  const router = Router();
  router.post(
    '/api/signals',
    express.text({ type: () => true, limit: BEACON_BYTES }),
    (req, res, next) => {
      let json: unknown;
      try {
        json = JSON.parse(typeof req.body === 'string' ? req.body : '');
      } catch {
        return void res.status(400).json(failure('Send one report as JSON: { remote, release, kind, route, hash }.'));
      }
      const beacon = beaconSchema.safeParse(json);
      if (!beacon.success) {
        const issue = beacon.error.issues[0];
        const field = issue?.code === 'unrecognized_keys' ? issue.keys.join(', ') : String(issue?.path[0] ?? 'body');
        return void res.status(400).json(failure('Not a valid report.', { [field]: issue?.message ?? 'invalid' }));
      }
      // Only releases that exist are counted: a made-up id cannot add keys.
      if (!readReleaseMeta(opts.releasesDir, beacon.data.remote, beacon.data.release))
        return void res.status(422).json(failure(`No release ${beacon.data.release} of ${beacon.data.remote}.`));
      res.locals.beacon = beacon.data;
      next();
    },
    opts.limit,
    (_req, res) => {
      const b = res.locals.beacon as Beacon;
      opts.signals.count(b.remote, b.release, b.kind);
      opts.onReport?.(b);
      res.sendStatus(204);
    },
  );
  return router;
}
