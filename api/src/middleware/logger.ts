import { pino } from 'pino';
import { pinoHttp } from 'pino-http';

export function createLogger(level: string) {
  return pino({ level });
}

/** Structured request logs (method, url, status, time); the server's own loopback data requests are not logged. */
export function requestLogger(logger: ReturnType<typeof createLogger>) {
  return pinoHttp({
    logger,
    autoLogging: { ignore: (req) => req.headers['x-internal-render'] === '1' },
    serializers: {
      req: (req) => ({ method: req.method, url: req.url }),
      res: (res) => ({ statusCode: res.statusCode }),
    },
  });
}
