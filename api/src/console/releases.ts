/**
 * The releases page: each remote's state, releases, history and watched error rates, and the actions, which go
 * through the same service as the release API and the CLI (releases/actions.ts). A change needs the release-manager
 * role for that remote, the remote's name typed as confirmation, and a reason (history and audit trail).
 */
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { reasonField } from '@aitools/contracts/fields';
import { success } from '@aitools/contracts/answers';
import type { DB } from '../db/connection';
import { REMOTE_NAMES } from '../paths';
import { abortCanary, activateRelease, promoteCanary, rollBackRelease, type Caller } from '../releases/actions';
import type { RollbackRule } from '../config';
import type { RollbackMonitor } from '../releases/autoRollback';
import { RELEASE_ID, type ManifestStore } from '../releases/manifest';
import type { ReleaseCounts, Signals } from '../releases/signals';
import { listReleases, type StoreLocation } from '../releases/store';
import type { ReleaseStore } from '../releases/releaseStore';
import { personActor } from '../content/audit';
import { RELEASE_ACTION_FORM } from '@aitools/contracts/formFields';
import { readBody } from './body';
import { addressOf, allow, personOf } from './guard';
import { ConsoleError } from './people';
import { signalSeries } from './series';

export interface ReleasesDeps {
  db: DB;
  releasesDir: string;
  manifests: ManifestStore;
  files: ReleaseStore;
  signals: Signals;
  rollbacks: RollbackMonitor;
  rule: RollbackRule;
}

const confirmed = { confirm: z.string().max(100), reason: reasonField() };
const canaryBody = z
  .object({
    release: z.string().regex(RELEASE_ID, 'not a release id'),
    share: z.number().int().min(1).max(99),
    ...confirmed,
  })
  .strict();
const actionBody = z.object({ ...confirmed }).strict();
const rollbackBody = z
  .object({
    ...confirmed,
    release: z.string().regex(RELEASE_ID, 'not a release id').optional(),
    force: z.boolean().optional(),
  })
  .strict();

/** Error rate in percent (null without views). */
const rate = (c: ReleaseCounts) => (c.views ? (c.errors / c.views) * 100 : null);
/** The window the rates are read over when nothing is being watched. */
const RECENT_MS = 60 * 60_000;
const MAX_SERIES_HOURS = 48;

/** Each remote's state as the console shows it (the releases page and the dashboard). */
export function createReleaseViews(deps: ReleasesDeps) {
  const at: StoreLocation = { releasesDir: deps.releasesDir, manifests: deps.manifests, files: deps.files };
  const stateOf = (remote: string) => deps.manifests.read().manifest.remotes[remote];

  /** Canary against stable: what automatic rollback compares now, else the last hour of the active release. */
  const errorRates = async (remote: string) => {
    const watch = await deps.rollbacks.report(remote);
    if (watch)
      return {
        watching: watch.kind,
        stable: { release: watch.stable, rate: rate(watch.stableCounts), ...watch.stableCounts },
        [watch.kind === 'canary' ? 'canary' : 'fresh']: {
          release: watch.fresh,
          rate: rate(watch.freshCounts),
          ...watch.freshCounts,
        },
      };
    const state = stateOf(remote);
    if (!state) return { watching: null };
    const stable = await deps.signals.counts(remote, state.active, Date.now() - RECENT_MS);
    return { watching: null, stable: { release: state.active, rate: rate(stable), ...stable } };
  };

  const canaryOf = (remote: string) => {
    const c = stateOf(remote)?.canary;
    return c ? { release: c.id, share: c.percent, since: c.since, by: c.by } : null;
  };

  const remoteView = async (remote: string) => {
    const state = stateOf(remote);
    return {
      name: remote,
      active: state?.active ?? null,
      canary: canaryOf(remote),
      releases: (await listReleases(at, remote)).map((r) => ({
        id: r.id,
        version: r.version,
        createdAt: r.builtAt,
        uploadedBy: r.releasedBy ?? null,
        gitCommit: r.source?.gitCommit ?? null,
        active: r.active,
      })),
      history: state?.history ?? [],
      errorRates: await errorRates(remote),
    };
  };

  const summary = async (remote: string) => ({
    name: remote,
    active: stateOf(remote)?.active ?? null,
    canary: canaryOf(remote),
    errorRates: await errorRates(remote),
  });

  return { at, stateOf, remoteView, summary };
}

export function releasesRouter(deps: ReleasesDeps): Router {
  const { db } = deps;
  const router = Router();
  const { at, stateOf, remoteView } = createReleaseViews(deps);

  const thresholds = {
    minViews: deps.rule.minViews,
    minErrors: deps.rule.minErrors,
    ratio: deps.rule.ratio,
    minDiffPoints: deps.rule.minDiffPoints,
    windowMinutes: deps.rule.windowMs / 60_000,
  };

  const read = allow(db, 'read', 'release.read');
  router.get('/releases', read, async (_req, res) => {
    const remotes = await Promise.all(REMOTE_NAMES.map(async (r) => ({ ...(await remoteView(r)), thresholds })));
    res.json(success({ remotes, thresholds }));
  });

  // The remote is checked before the role, so an unknown name is a 404 and never a refusal in the audit trail.
  router.param('remote', (_req, _res, next, remote: string) => {
    if (!(REMOTE_NAMES as readonly string[]).includes(remote))
      return next(new ConsoleError(404, `Unknown remote "${remote}". Known remotes: ${REMOTE_NAMES.join(', ')}.`));
    next();
  });

  router.get('/releases/:remote/series', read, async (req, res) => {
    const { remote } = req.params as { remote: string };
    const hours = Number(req.query.hours ?? 6);
    if (!Number.isInteger(hours) || hours < 1 || hours > MAX_SERIES_HOURS)
      throw new ConsoleError(400, `hours is a whole number from 1 to ${MAX_SERIES_HOURS}.`);
    await deps.signals.flush();
    res.json(success({ points: await signalSeries(db, remote, Date.now() - hours * 3_600_000) }));
  });

  /** The typed confirmation, and who acts. */
  const callerOf = (req: Request, res: Response, body: { confirm: string; reason: string }): Caller => {
    const { remote } = req.params as { remote: string };
    if (body.confirm !== remote)
      throw new ConsoleError(400, `Type the remote's name (${remote}) in confirm to go ahead.`);
    const person = personOf(res);
    return { db, actor: personActor(person), by: person.name, address: addressOf(req), reason: body.reason };
  };
  const change = (action: string) => allow(db, 'release', `release.${action}`);

  router.post('/releases/:remote/canary', change('canary'), async (req, res) => {
    const body = readBody(canaryBody, req.body, RELEASE_ACTION_FORM);
    const { remote } = req.params as { remote: string };
    const r = await activateRelease(at, remote, body.release, { canary: body.share }, callerOf(req, res, body));
    res.json(success({ remote: await remoteView(r.remote) }));
  });

  router.post('/releases/:remote/promote', change('promote'), async (req, res) => {
    const body = readBody(actionBody, req.body, RELEASE_ACTION_FORM);
    const { remote } = req.params as { remote: string };
    await promoteCanary(at, remote, callerOf(req, res, body));
    res.json(success({ remote: await remoteView(remote) }));
  });

  router.post('/releases/:remote/abort', change('abort'), async (req, res) => {
    const body = readBody(actionBody, req.body, RELEASE_ACTION_FORM);
    const { remote } = req.params as { remote: string };
    await abortCanary(at, remote, callerOf(req, res, body));
    res.json(success({ remote: await remoteView(remote) }));
  });

  // A running canary is ended (the same as abort); otherwise the active release goes back to the previous one
  // (or to `release`).
  router.post('/releases/:remote/rollback', change('rollback'), async (req, res) => {
    const body = readBody(rollbackBody, req.body, RELEASE_ACTION_FORM);
    const { remote } = req.params as { remote: string };
    const caller = callerOf(req, res, body);
    if (stateOf(remote)?.canary && !body.release) await abortCanary(at, remote, caller);
    else await rollBackRelease(at, remote, { to: body.release, force: body.force }, caller);
    res.json(success({ remote: await remoteView(remote) }));
  });

  return router;
}
