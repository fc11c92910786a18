/**
 * What each POST to /mcp may ask, checked before the SDK reads it (docs/mcp.md, The site's own MCP server):
 * - one request per POST: the rate limit counts POSTs, and the SDK would run a JSON-RPC batch of up to 100 requests
 *   (batches left the protocol in 2025-06-18), a hundred searches for the price of one;
 * - no task: the server runs every request as a plain one (withoutTask);
 * - its params as the MCP schema says: the SDK refuses others too, but as an internal error (-32603) carrying the
 *   schema library's dump of issues; a client's mistake is an invalid-params error (-32602) that says where.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  isJSONRPCRequest,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';

/** The requests this server answers, by method. */
const SCHEMAS = new Map(
  [
    CallToolRequestSchema,
    GetPromptRequestSchema,
    InitializeRequestSchema,
    ListResourcesRequestSchema,
    ListResourceTemplatesRequestSchema,
    ListToolsRequestSchema,
    PingRequestSchema,
    ReadResourceRequestSchema,
  ].map((schema) => [schema.shape.method.value as string, schema]),
);

/** Why a request's params are refused, or undefined when the SDK may read them. */
export function paramsProblem(request: JSONRPCRequest): string | undefined {
  const schema = SCHEMAS.get(request.method);
  if (!schema) return undefined;
  const refused = (where: string) => `The params of ${request.method} do not match its MCP schema at "${where}".`;
  const parsed = schema.safeParse(request);
  if (!parsed.success) return refused(parsed.error.issues[0].path.join('.') || 'params');
  // The SDK reads the URI with `new URL`, whose failure would again be an internal error.
  const { uri } = (request.params ?? {}) as { uri?: string };
  if (request.method === 'resources/read' && !URL.canParse(uri!)) return refused('params.uri');
  return undefined;
}

export const ONE_REQUEST_PER_POST =
  'One request per POST: this endpoint answers no JSON-RPC batch of requests (send each in a POST of its own).';

/** The request without `params.task`: this server declares no tasks capability, so a request asking to run as a task
 *  runs as a plain one, the protocol's rule for such a receiver (the SDK would refuse it as an internal error). */
function withoutTask(request: JSONRPCRequest): JSONRPCRequest {
  if (!request.params || !('task' in request.params)) return request;
  const { task: _task, ...params } = request.params;
  return { ...request, params };
}

/** Checks the requests of one POST (a transport serves one), before its server (connected already) reads them. */
export function checkRequests(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) throw new Error('checkRequests: connect the server to the transport first');
  let requests = 0;
  transport.onmessage = (received: JSONRPCMessage, extra) => {
    if (!isJSONRPCRequest(received)) return deliver(received, extra);
    const message = withoutTask(received);
    const refuse = (code: ErrorCode, text: string) =>
      void transport.send({ jsonrpc: '2.0', id: message.id, error: { code, message: text } });
    if (++requests > 1) return refuse(ErrorCode.InvalidRequest, ONE_REQUEST_PER_POST);
    const problem = paramsProblem(message);
    return problem ? refuse(ErrorCode.InvalidParams, problem) : deliver(message, extra);
  };
}
