/**
 * What every console request passes: the console's own headers, the same-origin rule for changes, the session,
 * and the role check, which writes a refusal to the audit trail (docs/operations.md, The console).
 */
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { failure } from '@aitools/contracts/answers';
import { inTransaction, type DB } from '../db/connection';
import { errorStatus, HttpError, publicErrorMessage } from '../middleware/errors';
import { loggedUrl } from '../middleware/logger';
import { ModerationError } from '../moderation/service';
import { ReleaseError } from '../releases/refusal';
import { TokenError } from '../releases/tokens';
import { StaleVersionError } from '../content/revisions';
import { personActor, writeAudit, type AuditEntry } from '../content/audit';
import { ConsoleError, type Person } from './people';
import { may, type Capability } from './roles';
import { currentSession, type Session, type SessionTimes } from './sessions';

/** The console's policy: its own scripts and styles only, never framed, nothing sent elsewhere; images also from
 *  the site, as a post's live preview shows them (console/previewAddresses.ts). */
export function consoleCsp(siteOrigin: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: ${new URL(siteOrigin).origin}`,
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}

export function consoleHeaders(siteOrigin: string): RequestHandler {
  const csp = consoleCsp(siteOrigin);
  return (_req, res, next) => {
    res.set({
      'Content-Security-Policy': csp,
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'X-Robots-Tag': 'noindex, nofollow',
      'Referrer-Policy': 'no-referrer',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Resource-Policy': 'same-origin',
      'Permissions-Policy':
        'camera=(), microphone=(), geolocation=(), publickey-credentials-get=(self), publickey-credentials-create=(self)',
      'Cache-Control': 'no-store',
    });
    if (res.req.secure) res.set('Strict-Transport-Security', 'max-age=31536000');
    next();
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The same refusal from one address is written to the audit trail once a minute at most. */
export const REFUSAL_ROW_EVERY_MS = 60_000;

/**
 * Writes refusals made before anyone is known (a cross-site change, a sign-in limit) to the audit trail as
 * `anonymous`: the first of each action from an address in a minute, and how many that address had refused since
 * its last row, so a flood of refused requests is on the record without flooding it.
 */
export function refusalAudit(db: DB, now: () => number = Date.now) {
  const seen = new Map<string, { at: number; more: number }>();
  return async (req: Request, action: string, summary: string): Promise<void> => {
    const at = now();
    const key = `${action} ${addressOf(req)}`;
    const last = seen.get(key);
    if (last && at - last.at < REFUSAL_ROW_EVERY_MS) return void last.more++;
    if (seen.size > 10_000) for (const [k, v] of seen) if (at - v.at >= REFUSAL_ROW_EVERY_MS) seen.delete(k);
    seen.set(key, { at, more: 0 });
    await writeAudit(db, {
      actor: 'anonymous',
      action,
      // The address as a log line has it (loggedUrl): an invitation's token never reaches the trail.
      target: loggedUrl(req.originalUrl).split('?')[0]!,
      summary: last?.more ? `${summary} (and ${last.more} more since the last row)` : summary,
      address: addressOf(req),
      outcome: 'refused',
    });
  };
}
export type RefusalAudit = ReturnType<typeof refusalAudit>;

/**
 * A change must come from the console's own pages: Fetch Metadata says same-origin (when the browser sends it) and
 * Origin is the console's. A form or a script on any other site, a public remote included, gets 403, written to the
 * audit trail (`console.cross-site`).
 */
export function sameOrigin(origin: string, refused: RefusalAudit): RequestHandler {
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const site = req.get('sec-fetch-site');
    if ((site === undefined || site === 'same-origin') && req.get('origin') === origin) return next();
    const from = `Origin ${req.get('origin') ?? 'none'}, Sec-Fetch-Site ${site ?? 'none'}`;
    refused(req, 'console.cross-site', `refused: a change from another site (${from})`)
      .then(() => res.status(403).json(failure('Changes are accepted only from the console itself (same origin).')))
      .catch(next);
  };
}

export const sessionOf = (res: Response) => res.locals.session as Session;
export const personOf = (res: Response): Person => sessionOf(res).person;

/** 401 without a live session (none, signed out, timed out, or the person disabled since). */
export function requireSession(db: DB, times: SessionTimes): RequestHandler {
  return (req, res, next) => {
    currentSession(db, req, times)
      .then((session) => {
        if (!session) return void res.status(401).json(failure('Sign in first.'));
        res.locals.session = session;
        next();
      })
      .catch(next);
  };
}

/**
 * 403 unless the person's roles allow `capability` (any of them, given several; for releases: on the remote of the
 * route's :remote). Every refusal is a row of the audit trail.
 */
export function allow(db: DB, capability: Capability | Capability[], action: string): RequestHandler {
  const any = Array.isArray(capability) ? capability : [capability];
  return (req, res, next) => {
    const person = personOf(res);
    const remote = (req.params as { remote?: string }).remote;
    if (any.some((c) => may(person.roles, c, remote))) return next();
    const target = remote ?? req.path;
    const needs = any.map((c) => (c === 'release' ? `release-manager of ${remote ?? '?'}` : c)).join(' or ');
    writeAudit(db, {
      actor: personActor(person),
      action,
      target,
      summary: `refused: needs ${needs}`,
      address: req.ip,
      outcome: 'refused',
    })
      .then(() => res.status(403).json(failure(`Your roles do not allow this (${action} on ${target}).`)))
      .catch(next);
  };
}

/** The address of a request, for the audit trail (the connection's, or the trusted proxy's). */
export const addressOf = (req: Request) => req.ip ?? '';

/** The audit row of a signed-in person's request: who, from where, and what it did. */
export const auditEntry = (
  req: Request,
  res: Response,
  action: string,
  target: string,
  summary: string,
): AuditEntry => ({
  actor: personActor(personOf(res)),
  action,
  target,
  summary,
  address: addressOf(req),
});

/** A change a signed-in person makes: what its audit row names and says, and what the call answers. */
export type AuditedChange<T> = (trx: DB) => Promise<{ target: string; summary: string; answer: T }>;

/**
 * Makes a change and writes its audit row in one transaction, so neither is kept without the other (docs/operations.md,
 * The console): a change that fails leaves no row, and a row that cannot be written undoes the change.
 */
export function auditedChange<T>(
  db: DB,
  req: Request,
  res: Response,
  action: string,
  change: AuditedChange<T>,
): Promise<T> {
  return inTransaction(db, async (trx) => {
    const { target, summary, answer } = await change(trx);
    await writeAudit(trx, auditEntry(req, res, action, target, summary));
    return answer;
  });
}

/** Refusals of the services keep their words and status; anything else is the site's generic answer. */
export function consoleErrors(report: (err: unknown, status: number) => void): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    if (err instanceof ConsoleError || err instanceof ReleaseError)
      return void res.status(err.status).json(failure(err.message));
    // A save made from an older version: the editor is shown the newer one (content/revisions.ts).
    if (err instanceof StaleVersionError)
      return void res.status(409).json({ ...failure(err.message), latest: err.latest });
    if (err instanceof ModerationError || err instanceof TokenError)
      return void res.status(400).json(failure(err.message));
    const status = errorStatus(err);
    report(err, status);
    if (err instanceof HttpError) return void res.status(status).json(failure(err.message, err.fieldErrors));
    res.status(status).json(failure(publicErrorMessage(err, status)));
  };
}
