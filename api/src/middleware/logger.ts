import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino } from 'pino';
import { pinoHttp } from 'pino-http';
import pretty from 'pino-pretty';

export type LogFormat = 'json' | 'pretty';

/**
 * JSON lines (for log collectors) or, in a terminal, one readable line per entry; to stdout unless told.
 * Stdout is written asynchronously: lines logged while a write is under way go out together in the next one, so a
 * busy server makes one write per burst rather than one per request (a synchronous write per line was the largest
 * single cost of a cached read), and a quiet one still writes each line at once. Pino flushes it on exit.
 */
export function createLogger(level: string, format: LogFormat = 'json', destination?: NodeJS.WritableStream) {
  if (format === 'json') return pino({ level }, destination ?? pino.destination({ dest: 1, sync: false }));
  return pino(
    { level },
    pretty({
      colorize: !destination,
      translateTime: 'SYS:HH:MM:ss',
      ignore: 'pid,hostname',
      singleLine: true,
      sync: true,
      ...(destination ? { destination } : {}),
    }),
  );
}

/** Immutable files (release bundles, shell assets, logo tiles, covers and social images): addressed by content. */
const IMMUTABLE_FILES = /^\/(?:assets|remotes|logos|og|covers)\//;

/** A request's log level: failures above info; a successful GET of an immutable file at debug (see below). */
function levelOf(
  method: string | undefined,
  url: string | undefined,
  status: number,
  err?: unknown,
): 'error' | 'warn' | 'info' | 'debug' {
  if (err || status >= 500) return 'error';
  if (status >= 400) return 'warn';
  return (method === 'GET' || method === 'HEAD') && IMMUTABLE_FILES.test(url ?? '') ? 'debug' : 'info';
}

/**
 * Structured request logs (method, url, status, time) of every request: no header turns them off, since any
 * client could send it. Internal work that is not a client request should not go through HTTP at all.
 * A successful GET of an immutable file is logged at debug level only: a page load fetches a dozen of them, and
 * their lines cost a large share of serving them while saying little; their failures stay at info or above.
 */
export function requestLogger(logger: ReturnType<typeof createLogger>) {
  return pinoHttp({
    logger,
    serializers: {
      req: (req) => ({ method: req.method, url: req.url }),
      res: (res) => ({ statusCode: res.statusCode }),
    },
    customLogLevel: (req, res, err) => levelOf(req.method, req.url, res.statusCode, err),
  });
}

/** The same line as requestLogger's, for an answer sent before Express (the front lane, app.ts), marked as such. */
export function logAnswered(
  logger: ReturnType<typeof createLogger>,
  req: IncomingMessage,
  res: ServerResponse,
  startedAt: number,
): void {
  const level = levelOf(req.method, req.url, res.statusCode);
  if (!logger.isLevelEnabled(level)) return;
  logger[level](
    {
      req: { method: req.method, url: req.url },
      res: { statusCode: res.statusCode },
      responseTime: Date.now() - startedAt,
      lane: 'front',
    },
    'request completed',
  );
}
