/**
 * A request's params checked against the MCP schema before the SDK reads them (docs/mcp.md, The site's own MCP
 * server). The SDK refuses such a request too, but as an internal error (-32603) carrying the schema library's dump
 * of issues; a client's mistake is an invalid-params error (-32602) that says where, in our words.
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

/** Refuses requests with malformed params on this transport, before its server (connected already) reads them. */
export function checkParams(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) throw new Error('checkParams: connect the server to the transport first');
  transport.onmessage = (message: JSONRPCMessage, extra) => {
    const problem = isJSONRPCRequest(message) ? paramsProblem(message) : undefined;
    if (!problem) return deliver(message, extra);
    const id = (message as JSONRPCRequest).id;
    void transport.send({ jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidParams, message: problem } });
  };
}
