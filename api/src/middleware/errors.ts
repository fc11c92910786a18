import type { ErrorRequestHandler, RequestHandler } from 'express';
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

export const notFoundApi: RequestHandler = (_req, res) => {
  res.status(404).json({ success: false, error: 'Not found' });
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
  const status = err instanceof HttpError ? err.status : (err as { status?: unknown; statusCode?: unknown } | null)?.status;
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

export const errorHandler: ErrorRequestHandler = (err, req, res, next) => {
  // A response already under way can only be cut off; Express's default handler does that.
  if (res.headersSent) return next(err);
  const status = errorStatus(err);
  if (status >= 500) req.log?.error({ err }, 'request failed');
  res.status(status).json({ success: false, error: publicErrorMessage(err, status), ...(err instanceof HttpError && err.fieldErrors ? { fieldErrors: err.fieldErrors } : {}) });
};
