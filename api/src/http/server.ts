import { createServer, type RequestListener, type Server } from 'node:http';
import { answerClientErrors } from './clientErrors';

/**
 * How long a client may take: its headers within 20 s, its whole request (a release archive included) within
 * 60 s, an idle kept-alive connection 5 s. Node's defaults (60 s and 300 s) let a client that trickles a byte a
 * few seconds hold a connection for five minutes, and thousands of them the process's file descriptors. A cap of
 * connections per client is the proxy's in front (docs/operations.md, "Slow clients").
 */
export const CLIENT_TIMEOUTS = { headersTimeout: 20_000, requestTimeout: 60_000, keepAliveTimeout: 5_000 };

/** A listener of the site's: its handler, the client timeouts, and unparseable requests answered (clientErrors.ts). */
export function createSiteServer(handler: RequestListener, timeouts = CLIENT_TIMEOUTS): Server {
  return answerClientErrors(
    createServer({ ...timeouts, connectionsCheckingInterval: Math.min(30_000, timeouts.headersTimeout / 2) }, handler),
  );
}
