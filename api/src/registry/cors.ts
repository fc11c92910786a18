/**
 * /v0.1 is read by registry clients in other origins (IDE extensions, web UIs), as the official registry is: every
 * answer allows any origin, and a preflight for GET gets a 204. Nothing here reads cookies, so `*` exposes nothing.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { errorStatus, publicErrorMessage } from '../middleware/errors';

const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';
/** Headers a registry client may send; a preflight asking for others gets them allowed too (they change nothing). */
const DEFAULT_HEADERS = 'Accept, Content-Type, Authorization, If-None-Match';
const PREFLIGHT_MAX_AGE = '86400';

export const registryCors: RequestHandler = (req, res, next) => {
  res.set('Access-Control-Allow-Origin', '*');
  // The site's default (same-origin) would keep these answers from other origins' no-cors loads; they are public.
  res.set('Cross-Origin-Resource-Policy', 'cross-origin');
  if (req.method !== 'OPTIONS') return next();
  const asked = req.get('Access-Control-Request-Headers');
  res
    .status(204)
    .set({
      'Access-Control-Allow-Methods': ALLOWED_METHODS,
      'Access-Control-Allow-Headers': asked && /^[\w\s,-]{1,500}$/.test(asked) ? asked : DEFAULT_HEADERS,
      'Access-Control-Max-Age': PREFLIGHT_MAX_AGE,
      Allow: ALLOWED_METHODS,
      'Cache-Control': 'no-store',
    })
    .end();
};

const ENDPOINTS =
  'Not found. This registry answers GET /v0.1/servers, /v0.1/servers/{name}/versions and /v0.1/servers/{name}/versions/{version}.';

/** Anything under /v0.1 that no route answered: JSON, never the site's HTML page. */
export const registryNotFound: RequestHandler = (req, res) => {
  // A fixed text: an error body never echoes the address it was asked for (middleware/errors.ts).
  if (req.method === 'GET' || req.method === 'HEAD') return void res.status(404).json({ error: ENDPOINTS });
  res
    .status(405)
    .set('Allow', ALLOWED_METHODS)
    .json({ error: `${req.method} is not supported: this registry is read-only` });
};

/** A client's mistake under /v0.1 (an address that is not valid percent-encoding) in the registry's `{ error }`; a
 *  fault of ours goes on to the site's handler, which logs it. */
export const registryClientError: ErrorRequestHandler = (err, _req, res, next) => {
  const status = errorStatus(err);
  if (status >= 500) return next(err);
  // Never the error's own message: it quotes the address (middleware/errors.ts).
  const error = err instanceof URIError ? 'The address is not valid percent-encoding' : publicErrorMessage(err, status);
  res.status(status).set('Cache-Control', 'no-store').json({ error });
};
