import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
// req.log is pino-http's (middleware/logger.ts); its type comes with it wherever this file is compiled.
import type {} from 'pino-http';
import { SITE_NAME } from '@aitools/platform/site';
import { failure } from '@aitools/contracts/answers';
import { reasonsText, type FormFields } from '@aitools/contracts/formFields';
import { TOO_MANY_REQUESTS } from './rateLimit';

/** Error bodies: { success: false, error, fieldErrors? } with the matching status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors?: Record<string, string>,
  ) {
    super(message);
  }
}

/** A refused write: 400 "Not accepted: " and each field's reason, named by the label of the form that sends it. */
export function notAccepted(fields: FormFields, fieldErrors: Record<string, string>): HttpError {
  return new HttpError(400, `Not accepted: ${reasonsText(fields, fieldErrors)}`, fieldErrors);
}

export const notFoundApi: RequestHandler = (_req, res) => {
  res.status(404).json(failure('Not found'));
};

/** After a path's routes: any other method is a 405 naming the ones it takes (OPTIONS: just those), not a 404. */
export const allowOnly =
  (methods: string): RequestHandler =>
  (req, res, next) => {
    res.set('Allow', methods);
    if (req.method === 'OPTIONS') return void res.sendStatus(204);
    next(new HttpError(405, 'Method not allowed'));
  };

/**
 * Our own words for every status. Messages of other errors are never sent: they carry file paths (a static
 * file's ENOENT) or echo what the client sent (an undecodable URI, an unknown charset).
 */
const MESSAGES: Record<number, string> = {
  400: 'Bad request',
  404: 'Not found',
  405: 'Method not allowed',
  413: 'Request body too large',
  415: 'Unsupported content type',
  429: TOO_MANY_REQUESTS,
};

/** The status an error stands for: its own when it is a 4xx or 5xx, else 500. */
export function errorStatus(err: unknown): number {
  const status =
    err instanceof HttpError ? err.status : (err as { status?: unknown; statusCode?: unknown } | null)?.status;
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599 ? status : 500;
}

/** The text an error body may carry: the message of an HttpError (ours), else a fixed one for its status. */
export function publicErrorMessage(err: unknown, status = errorStatus(err)): string {
  if (err instanceof HttpError) return err.message;
  const type = (err as { type?: unknown } | null)?.type;
  if (type === 'entity.parse.failed') return 'Request body is not valid JSON';
  if (status >= 500) return 'Internal server error';
  return MESSAGES[status] ?? 'Request failed';
}

/** Paths that are never pages: their clients read JSON (or a file), whatever they accept. */
const NOT_PAGES = /^\/(api|v0\.1|remotes|assets|logos|og|covers|feeds)(\/|$)|^\/remotes\.json$/;

/** A browser asking for a page gets an HTML error page; the API and files keep JSON. */
export function wantsHtmlPage(req: Pick<Request, 'path' | 'accepts'>): boolean {
  return !NOT_PAGES.test(req.path) && req.accepts(['json', 'html']) === 'html';
}

/** Status words for the HTML page (never the error's own message: see publicErrorMessage). */
const PAGE_TITLES: Record<number, string> = {
  400: 'Bad request',
  404: 'Page not found',
  405: 'Method not allowed',
  413: 'Request too large',
  415: 'Unsupported content type',
  429: 'Too many requests',
  500: 'Something went wrong',
  503: 'Temporarily unavailable',
};

/** A small self-contained page (no script, no style, nothing from the request): the site name, the status in
 *  words and the way home. */
export function errorPageHtml(status: number): string {
  const title = PAGE_TITLES[status] ?? (status >= 500 ? PAGE_TITLES[500]! : 'Request failed');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex">
<title>${title} | ${SITE_NAME}</title>
</head>
<body>
<main>
<p>${SITE_NAME}</p>
<h1>${title}</h1>
<p>Error ${status}. ${status >= 500 ? 'Please try again in a moment.' : 'The address may be wrong, or the request could not be handled.'}</p>
<p><a href="/">Go to Homepage</a></p>
</main>
</body>
</html>
`;
}

export const errorHandler: ErrorRequestHandler = (err, req, res, next) => {
  // A response already under way can only be cut off; Express's default handler does that.
  if (res.headersSent) return next(err);
  const status = errorStatus(err);
  if (status >= 500) req.log?.error({ err }, 'request failed');
  if (wantsHtmlPage(req))
    return void res.status(status).set('Cache-Control', 'no-store').type('html').send(errorPageHtml(status));
  res
    .status(status)
    .json(failure(publicErrorMessage(err, status), err instanceof HttpError ? err.fieldErrors : undefined));
};

/** No text the site stores or looks up holds a NUL (Postgres text cannot), so an address with one is refused
 *  with a 400 before any query sees it. */
export const refuseNul: RequestHandler = (req, _res, next) =>
  next(/%00|\0/i.test(req.url) ? new HttpError(400, 'The address holds a NUL character') : undefined);
