/**
 * api/src/mcp owns the site's own MCP server (docs/mcp.md, The site's own MCP server): this router (POST /mcp and
 * its transport rules), server.ts (the tools, their schemas and the page resource), answers.ts (each answer from the
 * site's own functions) and listing.ts (the directory's own record).
 *
 * Stateless: each request gets a fresh transport and an idle server, so no session is kept between requests. The SDK's
 * transport applies the transport's rules: Origin (DNS-rebinding protection: the site's own origin, or none),
 * Accept, Content-Type, MCP-Protocol-Version and the body's size; the site's rate limit per address comes first.
 */
import { Router, type RequestHandler } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Logger } from 'pino';
import type { DB } from '../db/connection';
import type { SiteMetrics } from '../metrics';
import { createMcpServer, MCP_TOOL_NAMES } from './server';
import { MCP_PATH } from './listing';
import { checkRequests } from './requests';

/** A JSON-RPC request to these tools is a few hundred bytes; anything near this is not one. */
export const MAX_BODY_BYTES = 64 * 1024;

export interface McpRouterDeps {
  db: DB;
  siteOrigin: string;
  /** The site's rate limit for this endpoint (middleware/rateLimit.ts, budget "mcp"). */
  limit: RequestHandler;
  metrics?: SiteMetrics;
  logger?: Logger;
}

/** Servers kept for reuse: as many as requests run at once on a busy instance. */
const MAX_IDLE = 16;

/** A JSON-RPC error answer (no id: it answers no readable request), as the SDK's transport words its own. */
const rpcError = (message: string) => ({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });

export function mcpRouter({ db, siteOrigin, limit, metrics, logger }: McpRouterDeps): Router {
  const origin = new URL(siteOrigin).origin;
  // A row per tool in /metrics from the start, so a scrape shows the tools no one has called yet.
  for (const tool of MCP_TOOL_NAMES) {
    for (const result of ['ok', 'error']) metrics?.mcpCalls.inc({ tool, result }, 0);
    metrics?.mcpCallSeconds.zero({ tool });
  }
  // Servers between requests: making one is about 2.5 ms of CPU (the SDK's set-up), five times a call's own work.
  const idle: McpServer[] = [];
  const router = Router();
  router.post(MCP_PATH, limit, async (req, res, next) => {
    res.set('Cache-Control', 'no-store');
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      enableDnsRebindingProtection: true,
      allowedOrigins: [origin],
      maxRequestBodySize: MAX_BODY_BYTES,
    });
    // The transport's refusals (a foreign Origin, a bad header) are the client's; logged for the operator at debug.
    transport.onerror = (err) => logger?.debug({ err: err.message }, 'mcp request refused');
    const server = idle.pop() ?? createMcpServer({ db, origin, metrics });
    // Closing ends its transport; the server then takes the next request's (the SDK's rule: close, then connect).
    res.on(
      'close',
      () =>
        void server.close().then(
          () => idle.length < MAX_IDLE && idle.push(server),
          () => undefined,
        ),
    );
    try {
      await server.connect(transport);
      checkRequests(transport);
      await transport.handleRequest(req, res);
    } catch (err) {
      next(err);
    }
  });
  // No server-sent stream to open and no session to end: the endpoint answers POSTs only. Each such request counts
  // against the rate limit too (docs/mcp.md: every request counts).
  router.all(MCP_PATH, limit, (_req, res) => {
    res
      .status(405)
      .set('Allow', 'POST')
      .json(rpcError('Method not allowed: this MCP endpoint is stateless (POST only)'));
  });
  return router;
}
