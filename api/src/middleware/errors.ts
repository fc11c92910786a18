import type { ErrorRequestHandler, RequestHandler } from 'express';

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

export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  const status: number = err instanceof HttpError ? err.status : typeof err?.status === 'number' ? err.status : 500;
  if (status >= 500) req.log?.error({ err }, 'request failed');
  const message =
    err instanceof HttpError
      ? err.message
      : err?.type === 'entity.too.large'
        ? 'Request body too large'
        : err?.type === 'entity.parse.failed'
          ? 'Request body is not valid JSON'
          : status >= 500
            ? 'Internal server error'
            : (err?.message ?? 'Request failed');
  res.status(status).json({ success: false, error: message, ...(err instanceof HttpError && err.fieldErrors ? { fieldErrors: err.fieldErrors } : {}) });
};
