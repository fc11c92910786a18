import express, { type RequestHandler } from 'express';
import { decodeUtf8 } from '@aitools/contracts/formBody';
import { HttpError } from './errors';

/** A request that carries a body (a length above zero, or chunks): only then does its Content-Type matter. */
function hasBody(req: Parameters<RequestHandler>[0]): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * A JSON body, up to `limit`: another type is refused with 415 (not read as "no fields"), bytes that are not
 * UTF-8 with 400 (the parser would otherwise store U+FFFD in their place), a body over the limit with 413.
 */
export function jsonBody(limit: string): RequestHandler {
  const parse = express.json({
    limit,
    verify: (_req, _res, bytes) => {
      if (decodeUtf8(bytes) === null) throw new HttpError(400, 'Request body is not valid UTF-8');
    },
  });
  return (req, res, next) => {
    if (hasBody(req) && !req.is('application/json'))
      return next(new HttpError(415, 'Send the body as JSON (Content-Type: application/json)'));
    parse(req, res, next);
  };
}
