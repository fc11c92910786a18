import { pino } from 'pino';
import { pinoHttp } from 'pino-http';

export function createLogger(level: string) {
  return pino({ level });
}

/**
 * Structured request logs (method, url, status, time) of every request: no header turns them off, since any
 * client could send it. Internal work that is not a client request should not go through HTTP at all.
 */
export function requestLogger(logger: ReturnType<typeof createLogger>) {
  return pinoHttp({
    logger,
    serializers: {
      req: (req) => ({ method: req.method, url: req.url }),
      res: (res) => ({ statusCode: res.statusCode }),
    },
  });
}
