/**
 * Page views, the error rates' denominator (autoRollback.ts). A visitor picks its side of a canary (the bucket
 * cookie) and a view needs no token, so views are earned like reports: a few per visitor (the client address, as
 * Express reads it with TRUST_PROXY) per release and window (signalTokens.ts), and one address cannot move the rate.
 */
import type { IncomingMessage } from 'node:http';
import type { Express } from 'express';
import type { Signals } from './signals';
import type { SignalTokens } from './signalTokens';

/** The client's address as Express's req.ip reads it, also for a request that never reached Express (the front
 *  lane's answers). */
export function clientAddress(app: Express): (req: IncomingMessage) => string {
  return (req) =>
    (Reflect.get(app.request, 'ip', Object.create(req, { app: { value: app } })) as string | undefined) ??
    req.socket.remoteAddress ??
    '';
}

/** Counts a page view of a release, within its visitor's cap. */
export function viewCounter(opts: {
  signals: Pick<Signals, 'count'>;
  tokens: Pick<SignalTokens, 'claimView'>;
  addressOf: (req: IncomingMessage) => string;
}): (req: IncomingMessage, remote: string, release: string) => void {
  return (req, remote, release) => {
    if (opts.tokens.claimView(remote, release, opts.addressOf(req))) opts.signals.count(remote, release, 'view');
  };
}
