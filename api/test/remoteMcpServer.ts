/**
 * A remote MCP server for tests, over Streamable HTTP with the official SDK's server (stateless: a transport per
 * request) at /mcp, and over the older SSE transport at /sse. Its behaviour can change between requests: answering, asking for sign-in (401 with
 * `WWW-Authenticate` and protected resource metadata), answering HTML, never answering, or redirecting elsewhere.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export type RemoteMode = 'mcp' | 'sign-in' | 'html' | 'hang' | { redirectTo: string };

export interface RemoteMcp {
  url: string;
  port: number;
  mode: RemoteMode;
  requests: number;
  close(): Promise<void>;
}

export async function startRemoteMcp(
  opts: { host?: string; port?: number; tools?: { name: string; description: string }[] } = {},
): Promise<RemoteMcp> {
  const tools = opts.tools ?? [{ name: 'echo', description: 'Returns the text it is given.' }];
  const state: RemoteMcp = { url: '', port: 0, mode: 'mcp', requests: 0, close: async () => undefined };
  const sessions = new Map<string, SSEServerTransport>();
  const server: Server = createServer((req, res) => {
    state.requests++;
    const mode = state.mode;
    if (req.url?.startsWith('/.well-known/oauth-protected-resource'))
      return res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ resource: state.url, authorization_servers: ['https://auth.example.com'] }));
    if (mode === 'hang') return;
    if (mode === 'html')
      return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>Welcome</p>');
    if (mode === 'sign-in')
      return res
        .writeHead(401, {
          'www-authenticate': `Bearer resource_metadata="${new URL('/.well-known/oauth-protected-resource/mcp', state.url).href}"`,
        })
        .end();
    if (typeof mode === 'object') return res.writeHead(307, { location: mode.redirectTo }).end();
    const mcp = new McpServer({ name: 'test-remote', version: '1.0.0' });
    for (const t of tools)
      mcp.registerTool(t.name, { description: t.description, inputSchema: { text: z.string() } }, ({ text }) => ({
        content: [{ type: 'text', text }],
      }));
    if (req.method === 'GET' && req.url === '/sse') {
      const sse = new SSEServerTransport('/messages', res);
      sessions.set(sse.sessionId, sse);
      res.on('close', () => sessions.delete(sse.sessionId));
      return void mcp.connect(sse);
    }
    if (req.url?.startsWith('/messages')) {
      const session = sessions.get(new URL(req.url, 'http://x').searchParams.get('sessionId') ?? '');
      return session ? void session.handlePostMessage(req, res) : res.writeHead(404).end();
    }
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void mcp.close());
    void mcp.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  state.url = `http://${opts.host ?? '127.0.0.1'}:${state.port}/mcp`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
