import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino } from 'pino';
import { pinoHttp } from 'pino-http';
import pretty from 'pino-pretty';
import { INVITE_PATH } from '@aitools/contracts/console';

export type LogFormat = 'json' | 'pretty';

/**
 * JSON lines (for log collectors) or, in a terminal, one readable line per entry; to stdout unless told.
 * Stdout is written asynchronously: lines logged while a write is under way go out together in the next one, so a
 * busy server makes one write per burst rather than one per request (a synchronous write per line was the largest
 * single cost of a cached read), and a quiet one still writes each line at once. Pino flushes it on exit.
 */
export function createLogger(level: string, format: LogFormat = 'json', destination?: NodeJS.WritableStream) {
  const options = { level, serializers: { err: errWithoutBody } };
  if (format === 'json') return pino(options, destination ?? pino.destination({ dest: 1, sync: false }));
  return pino(
    options,
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

/** The longest address a log line carries: past it the address is cut, and the line says how much was left out. */
export const LOGGED_URL_MAX = 300;
const REDACTED = '[redacted]';
/** A query parameter that carries a credential (a preview link's sig, a token, a key, a session...). */
const SECRET_PARAM = /token|sig|secret|key|pass|session|sid|auth|code|cred/i;

/**
 * The one rule for an address in a log line (request lines and the front lane's alike): an invitation or recovery
 * link's token and every credential-like query parameter are replaced with [redacted], then the address is bounded
 * (a client chooses its length). Headers (cookies, bearer tokens) and bodies are never logged at all.
 */
export function loggedUrl(url: string | undefined): string {
  const raw = url ?? '';
  const q = raw.indexOf('?');
  let path = q < 0 ? raw : raw.slice(0, q);
  // Express matches paths whatever their case; any form of the invitation path has its token redacted.
  if (safeDecode(path).toLowerCase().startsWith(INVITE_PATH)) path = INVITE_PATH + REDACTED;
  let query = '';
  if (q >= 0)
    query =
      '?' +
      raw
        .slice(q + 1)
        .split('&')
        .map((pair) => {
          const eq = pair.indexOf('=');
          const name = eq < 0 ? pair : pair.slice(0, eq);
          return eq >= 0 && SECRET_PARAM.test(safeDecode(name)) ? `${name}=${REDACTED}` : pair;
        })
        .join('&');
  const whole = path + query;
  return whole.length <= LOGGED_URL_MAX
    ? whole
    : `${whole.slice(0, LOGGED_URL_MAX)}…[cut: ${whole.length - LOGGED_URL_MAX} more characters]`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** An error as pino writes it, less what a request sent: body-parser's errors carry the raw body they refused. */
function errWithoutBody(err: unknown) {
  const out = pino.stdSerializers.err(err as Error) as Record<string, unknown>;
  if (out && typeof out === 'object') {
    delete out.body;
    delete out.rawBody;
  }
  return out;
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
      req: (req) => ({ method: req.method, url: loggedUrl(req.url) }),
      res: (res) => ({ statusCode: res.statusCode }),
      err: errWithoutBody,
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
      req: { method: req.method, url: loggedUrl(req.url) },
      res: { statusCode: res.statusCode },
      responseTime: Date.now() - startedAt,
      lane: 'front',
    },
    'request completed',
  );
}
