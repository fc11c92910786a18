import { randomBytes } from 'node:crypto';
import helmet from 'helmet';
import type { RequestHandler } from 'express';

/** A fresh nonce per response for the page's one inline script (the theme, applied before first paint). */
export const cspNonce: RequestHandler = (_req, res, next) => {
  res.locals.cspNonce = randomBytes(16).toString('base64');
  next();
};

export function securityHeaders(opts: { connectSrc: string[] }): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'script-src': ["'self'", (_req, res) => `'nonce-${(res as unknown as { locals: { cspNonce: string } }).locals.cspNonce}'`],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'https:'],
        'connect-src': ["'self'", ...opts.connectSrc],
        'upgrade-insecure-requests': null,
      },
    },
    // Same-origin assets only; COEP would block nothing useful and breaks external logos.
    crossOriginEmbedderPolicy: false,
  });
}
