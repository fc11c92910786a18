import { pino } from 'pino';
import { pinoHttp } from 'pino-http';
import pretty from 'pino-pretty';

export type LogFormat = 'json' | 'pretty';

/** JSON lines (for log collectors) or, in a terminal, one readable line per entry; to stdout unless told. */
export function createLogger(level: string, format: LogFormat = 'json', destination?: NodeJS.WritableStream) {
  if (format === 'json') return destination ? pino({ level }, destination) : pino({ level });
  return pino({ level }, pretty({ colorize: !destination, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', singleLine: true, sync: true, ...(destination ? { destination } : {}) }));
}

/** Immutable files (release bundles, shell assets, logo tiles, covers and social images): addressed by content. */
const IMMUTABLE_FILES = /^\/(?:assets|remotes|logos|og|covers)\//;

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
    customLogLevel: (req, res, err) => {
      if (err || res.statusCode >= 500) return 'error';
      if (res.statusCode >= 400) return 'warn';
      return (req.method === 'GET' || req.method === 'HEAD') && IMMUTABLE_FILES.test(req.url ?? '') ? 'debug' : 'info';
    },
  });
}
