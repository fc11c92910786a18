/**
 * The site's MCP endpoint through the official SDK's client over Streamable HTTP, against the app on an ephemeral
 * port: each tool against the site's own answers, the schemas, tool errors, and the transport's protections.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, LATEST_PROTOCOL_VERSION, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { installSnippets, serverKey } from '@aitools/contracts/installSnippets';
import type { DetailedPricing, ToolSummary } from '@aitools/contracts/tools';
import { parsePricingPlans } from '@aitools/contracts/plans';
import { failure } from '@aitools/contracts/answers';
import { createApp, type SiteApp } from '../app';
import { loadConfig } from '../config';
import type { DB } from '../db/connection';
import { openTestDatabase } from '../../test/testDatabase';
import { createLogger } from '../middleware/logger';
import { createSiteServer } from '../http/server';
import { seed } from '../seed';
import { TOO_MANY_REQUESTS } from '../middleware/rateLimit';
import { getServerByToolSlug } from '../registry/repository';
import { MAX_BODY_BYTES } from './router';
import { ONE_REQUEST_PER_POST } from './requests';
import { listSelf, SITE_SERVER_NAME, SITE_SERVER_SLUG } from './listing';
import { MCP_TOOL_NAMES } from './server';

let db: DB;
let app: SiteApp;
let base: string;
let close: () => Promise<void>;
const clients: Client[] = [];

async function startApp(env: Record<string, string> = {}) {
  const server = createSiteServer(
    (
      await createApp({
        config: loadConfig({ ...process.env, NODE_ENV: 'test', SITE_ORIGIN: 'https://dir.example', ...env }),
        db,
        logger: createLogger('silent'),
        pages: false,
      })
    ).handler,
  ).listen(0);
  await new Promise((r) => server.once('listening', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

beforeAll(async () => {
  db = await openTestDatabase();
  await seed(db);
  app = await createApp({
    config: loadConfig({
      ...process.env,
      NODE_ENV: 'test',
      SITE_ORIGIN: 'https://dir.example',
      MCP_RATE_LIMIT: '1000',
    }),
    db,
    logger: createLogger('silent'),
    pages: false,
  });
  const server = createSiteServer(app.handler).listen(0);
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((r) => server.close(() => r()));
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await close();
});

async function connect(url = base): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', url)));
  clients.push(client);
  return client;
}
const call = async (name: string, args: Record<string, unknown> = {}) =>
  (await (await connect()).callTool({ name, arguments: args })) as CallToolResult;
const structured = async <T>(name: string, args: Record<string, unknown> = {}) => {
  const res = await call(name, args);
  expect(res.isError, JSON.stringify(res.content)).toBeFalsy();
  // The same answer as text, for clients that read only text.
  expect(JSON.parse((res.content[0] as { text: string }).text)).toEqual(res.structuredContent);
  return res.structuredContent as T;
};
const errorText = (res: CallToolResult) => {
  expect(res.isError).toBe(true);
  return (res.content[0] as { text: string }).text;
};
const api = async <T>(path: string) => (await (await fetch(base + path)).json()) as T;

/** A raw POST to /mcp, headers as a client would send them unless replaced. */
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
function post(headers: Record<string, string> = {}, body: unknown = initialize, url = base) {
  return fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('the tools', () => {
  it('lists its four tools, each with a title, readOnlyHint and input and output schemas', async () => {
    const { tools } = await (await connect()).listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());
    for (const t of tools) {
      expect(t.title, t.name).toBeTruthy();
      expect(t.annotations?.readOnlyHint, t.name).toBe(true);
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
    }
    const search = tools.find((t) => t.name === 'search_tools')!;
    expect(Object.keys(search.inputSchema.properties ?? {}).sort()).toEqual([
      'category',
      'limit',
      'pricing',
      'text',
      'type',
    ]);
    for (const t of tools) expect(t.inputSchema.additionalProperties, t.name).toBe(false);
    expect(search.outputSchema?.required).toEqual(expect.arrayContaining(['total', 'results']));
    expect(tools.find((t) => t.name === 'get_tool')!.inputSchema.required).toEqual(['slug']);
  });

  it('search_tools answers what GET /api/tools/query answers for the same text and filters, with page addresses', async () => {
    for (const [args, query] of [
      [{ text: 'postgres' }, 'search=postgres'],
      [{ text: 'image', type: 'ai-tool' }, 'search=image&type=ai-tool'],
      [{ type: 'mcp-server', limit: 12 }, 'type=mcp-servers&size=12'],
      [{ category: 'Development', limit: 12 }, 'category=Development&size=12'],
      [{ pricing: 'free', limit: 12 }, 'type=free&size=12'],
    ] as const) {
      const answer = await structured<{ total: number; results: { slug: string; url: string }[] }>(
        'search_tools',
        args,
      );
      const page = await api<{ tools: ToolSummary[]; total: number }>(`/api/tools/query?${query}`);
      expect(
        answer.results.map((r) => r.slug),
        query,
      ).toEqual(page.tools.slice(0, args.limit ?? 10).map((t) => t.slug));
      expect(answer.total, query).toBe(page.total);
      expect(answer.total).toBeGreaterThan(0);
      for (const r of answer.results) expect(r.url).toBe(`https://dir.example/tool/${r.slug}`);
    }
  });

  it('search_tools combines type and pricing (free MCP servers) and offers suggestions when nothing matches', async () => {
    const free = await structured<{ results: { slug: string; type: string; pricing: string }[] }>('search_tools', {
      type: 'mcp-server',
      pricing: 'free',
      limit: 50,
    });
    expect(free.results.length).toBeGreaterThan(0);
    for (const r of free.results) {
      expect(r.type).toBe('mcp-server');
      expect(r.pricing).toMatch(/^free/i);
    }
    const none = await structured<{ total: number; suggestions?: string[] }>('search_tools', { text: 'githb' });
    expect(none.total).toBe(0);
    expect(none.suggestions).toContain('GitHub');
  });

  it('get_tool gives an MCP server`s facts, offered tools and the page`s install snippets on both systems', async () => {
    const tool = await structured<{
      name: string;
      url: string;
      mcpServer: {
        registryName: string;
        offers: { tools?: { name: string }[] };
        install: { macosLinux: { client: string; code: string }[]; windows: { code: string }[] };
      };
    }>('get_tool', { slug: 'brave-search-mcp-server' });
    expect(tool.url).toBe('https://dir.example/tool/brave-search-mcp-server');
    const record = (await getServerByToolSlug(db, 'brave-search-mcp-server'))!;
    const key = serverKey('brave-search-mcp-server');
    expect(tool.mcpServer.install.macosLinux.map((s) => s.code)).toEqual(
      installSnippets(record, key, 'posix').map((s) => s.code),
    );
    expect(tool.mcpServer.install.windows.map((s) => s.code)).toEqual(
      installSnippets(record, key, 'windows').map((s) => s.code),
    );
    expect(tool.mcpServer.install.macosLinux.find((s) => s.client === 'claude-code')!.code).toBe(
      "claude mcp add brave-search --transport stdio --env 'BRAVE_API_KEY=<BRAVE_API_KEY>' -- npx -y @modelcontextprotocol/server-brave-search",
    );
    expect(tool.mcpServer.install.windows.some((s) => s.code.includes('cmd /c npx'))).toBe(true);
    // By its registry name too.
    const byName = await structured<{ slug: string }>('get_tool', { slug: tool.mcpServer.registryName });
    expect(byName.slug).toBe('brave-search-mcp-server');
    // An inspected server lists the tools it offers.
    const inspected = await structured<typeof tool>('get_tool', { slug: 'playwright-mcp-server' });
    expect(inspected.mcpServer.offers.tools?.map((t) => t.name)).toContain('browser_navigate');
  });

  it('get_tool reads a registry name the record had before, as /v0.1 does (there a 301 to the new one)', async () => {
    const former = 'io.github.modelcontextprotocol/filesystem';
    const moved = await fetch(`${base}/v0.1/servers/${encodeURIComponent(former)}/versions/latest`, {
      redirect: 'manual',
    });
    expect(moved.status).toBe(301);
    const tool = await structured<{ slug: string; mcpServer: { registryName: string } }>('get_tool', { slug: former });
    expect(moved.headers.get('location')).toBe(
      `/v0.1/servers/${encodeURIComponent(tool.mcpServer.registryName)}/versions/latest`,
    );
    expect(tool.mcpServer.registryName).toBe('io.github.modelcontextprotocol/server-filesystem');
  });

  it('answers calls running at once each with its own answer (servers are reused between requests)', async () => {
    const slugs = ['chatgpt', 'cursor', 'brave-search-mcp-server', 'github-mcp-server', 'playwright-mcp-server'];
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(slugs.map((slug) => structured<{ slug: string }>('get_tool', { slug })));
      expect(answers.map((a) => a.slug)).toEqual(slugs);
    }
  });

  it('get_tool for an AI tool has its page`s plans and no server part', async () => {
    const tool = await structured<{ type: string; mcpServer?: unknown; plans: { name: string }[] }>('get_tool', {
      slug: 'chatgpt',
    });
    expect(tool.type).toBe('ai-tool');
    expect(tool.mcpServer).toBeUndefined();
    const { detailedPricing } = await api<{ detailedPricing: DetailedPricing }>('/api/tools/chatgpt');
    expect(tool.plans.map((p) => p.name)).toEqual(parsePricingPlans(detailedPricing).map((p) => p.name));
    expect(tool.plans.length).toBeGreaterThan(1);
  });

  it('an unknown slug is a tool error naming it; bad arguments are refused with the reason', async () => {
    expect(errorText(await call('get_tool', { slug: 'no-such-tool' }))).toMatch(
      /No tool or MCP server .* "no-such-tool"/,
    );
    expect(errorText(await call('search_tools', { limit: 0 }))).toMatch(/Input validation error.*limit/s);
    expect(errorText(await call('search_tools', { type: 'robot' }))).toMatch(/Input validation error.*type/s);
    expect(errorText(await call('get_tool', {}))).toMatch(/Input validation error.*slug/s);
    // An argument the tool does not know is named, never dropped: `query` for `text` would otherwise list everything.
    expect(errorText(await call('search_tools', { query: 'transcribe meetings' }))).toMatch(
      /Input validation error.*query/s,
    );
    expect(errorText(await call('list_categories', { verbose: true }))).toMatch(/Input validation error.*verbose/s);
  });

  it('list_categories counts the listed tools per category and tag', async () => {
    const answer = await structured<{
      total: number;
      categories: { name: string; tools: number }[];
      tags: { name: string; tools: number }[];
    }>('list_categories');
    const tools = (await api<{ data: ToolSummary[] }>('/api/tools')).data;
    expect(answer.total).toBe(tools.length);
    const mcp = tools.filter((t) => t.category === 'MCP Servers' || t.category === 'MCP').length;
    expect(answer.categories.find((c) => c.name === 'MCP Servers')!.tools).toBe(mcp);
    expect(answer.categories.map((c) => c.name)).not.toContain('All');
    expect(answer.tags.find((t) => t.name === 'mcp-server')!.tools).toBe(
      tools.filter((t) => t.tags.includes('mcp-server')).length,
    );
  });

  it('recent_posts gives the newest published posts with their addresses', async () => {
    const { posts } = await structured<{ posts: { slug: string; url: string; title: string }[] }>('recent_posts', {
      limit: 3,
    });
    const published = (await api<{ data: { slug: string }[] }>('/api/blog/public/posts')).data;
    expect(posts.map((p) => p.slug)).toEqual(published.slice(0, 3).map((p) => p.slug));
    for (const p of posts) expect(p.url).toBe(`https://dir.example/blog/${p.slug}`);
  });

  it('a tool`s page reads as a resource', async () => {
    const client = await connect();
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['aitools://tool/{slug}']);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain('aitools://tool/brave-search-mcp-server');
    const { contents } = await client.readResource({ uri: 'aitools://tool/brave-search-mcp-server' });
    const text = (contents[0] as { text: string }).text;
    expect(text).toMatch(/^# Brave Search/);
    expect(text).toContain('Page: https://dir.example/tool/brave-search-mcp-server');
    expect(text).toContain('claude mcp add brave-search');
    await expect(client.readResource({ uri: 'aitools://tool/no-such-tool' })).rejects.toThrow(/no-such-tool/);
    await expect(client.readResource({ uri: 'aitools://tool/%ZZ' })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringContaining('"%ZZ" is not a slug'),
    });
  });

  it('counts each tool`s calls, errors and time in /metrics, a row per tool from the start', async () => {
    const value = async (tool: string, result: string) =>
      (await app.metrics.mcpCalls.get()).values.find((v) => v.labels.tool === tool && v.labels.result === result)
        ?.value;
    for (const tool of MCP_TOOL_NAMES) expect(await value(tool, 'ok'), tool).toBeDefined();
    const ok = (await value('list_categories', 'ok'))!;
    const failed = (await value('get_tool', 'error'))!;
    await call('list_categories');
    await call('get_tool', { slug: 'no-such-tool' });
    expect(await value('list_categories', 'ok')).toBe(ok + 1);
    expect(await value('get_tool', 'error')).toBe(failed + 1);
    const text = await app.metrics.registry.metrics();
    for (const tool of MCP_TOOL_NAMES) expect(text).toContain(`mcp_tool_call_seconds_count{tool="${tool}"}`);
  });
});

describe('the transport`s rules', () => {
  it('refuses a foreign Origin with 403; the site`s own origin and no Origin are served', async () => {
    const foreign = await post({ Origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(JSON.stringify(await foreign.json())).toMatch(/Invalid Origin/);
    expect((await post({ Origin: 'https://dir.example' })).status).toBe(200);
    expect((await post()).status).toBe(200);
  });
  it('refuses a request that does not accept JSON and event streams (406)', async () => {
    expect((await post({ Accept: 'application/json' })).status).toBe(406);
    expect((await post({ Accept: '' })).status).toBe(406);
  });
  it('refuses an unsupported MCP-Protocol-Version (400) and accepts the current one', async () => {
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const bad = await post({ 'MCP-Protocol-Version': '1999-01-01' }, call);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toMatch(/Unsupported protocol version/);
    expect((await post({ 'MCP-Protocol-Version': LATEST_PROTOCOL_VERSION }, call)).status).toBe(200);
  });
  it('answers params the MCP schema refuses with invalid params (-32602) saying where, not an internal error', async () => {
    const cases: [string, unknown, string][] = [
      ['tools/call', { name: 'search_tools', arguments: 'text' }, 'params.arguments'],
      ['tools/call', undefined, 'params'],
      ['resources/read', {}, 'params.uri'],
      ['resources/read', { uri: 'not a uri' }, 'params.uri'],
    ];
    for (const [method, params, where] of cases) {
      const res = await post({}, { jsonrpc: '2.0', id: 7, method, ...(params === undefined ? {} : { params }) });
      expect(res.status, method).toBe(200);
      expect(await res.json(), `${method} ${JSON.stringify(params)}`).toEqual({
        jsonrpc: '2.0',
        id: 7,
        error: {
          code: ErrorCode.InvalidParams,
          message: `The params of ${method} do not match its MCP schema at "${where}".`,
        },
      });
    }
    // A well-formed call still reaches the server.
    const ok = await post({}, { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'list_categories' } });
    expect(((await ok.json()) as { result?: unknown }).result).toBeDefined();
  });
  it('runs a request that asks to be a task as a plain one: the server declares no tasks capability', async () => {
    const task = { ttl: 100 };
    for (const [method, params] of [
      ['tools/call', { name: 'search_tools', arguments: { text: 'postgres' }, task }],
      ['tools/list', { task }],
      ['ping', { task }],
      ['resources/list', { task }],
      ['resources/templates/list', { task }],
      ['resources/read', { uri: 'aitools://tool/brave-search-mcp-server', task }],
    ] as const) {
      const res = await post({}, { jsonrpc: '2.0', id: 9, method, params });
      expect(res.status, method).toBe(200);
      const body = (await res.json()) as { result?: Record<string, unknown>; error?: unknown };
      expect(body.error, method).toBeUndefined();
      expect(body.result, method).toBeDefined();
      expect(body.result!.task, method).toBeUndefined();
    }
  });
  it('declares no list_changed notifications: a stateless server has no stream to send them on', async () => {
    const res = await post();
    const { result } = (await res.json()) as { result: { capabilities: Record<string, { listChanged?: boolean }> } };
    expect(result.capabilities.tools).toEqual({ listChanged: false });
    expect(result.capabilities.resources).toEqual({ listChanged: false });
  });
  it('runs one request per POST: the others of a JSON-RPC batch are refused, so the rate limit counts each search', async () => {
    const searches = async () =>
      (await app.metrics.mcpCalls.get()).values.find(
        (v) => v.labels.tool === 'search_tools' && v.labels.result === 'ok',
      )!.value;
    const before = await searches();
    const call = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'search_tools', arguments: { text: 'browser automation' } },
    });
    const res = await post({}, [call(1), call(2), call(3), { jsonrpc: '2.0', method: 'notifications/initialized' }]);
    expect(res.status).toBe(200);
    const answers = (await res.json()) as { id: number; result?: unknown; error?: { code: number; message: string } }[];
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2, 3]);
    expect(answers.find((a) => a.id === 1)!.result).toBeDefined();
    for (const id of [2, 3])
      expect(answers.find((a) => a.id === id)!.error).toEqual({
        code: ErrorCode.InvalidRequest,
        message: ONE_REQUEST_PER_POST,
      });
    expect((await searches()) - before).toBe(1);
    // A batch holding initialize, which no revision let be batched, is refused whole (the SDK's rule).
    const init = await post({}, [initialize, { jsonrpc: '2.0', id: 2, method: 'ping' }]);
    expect(init.status).toBe(400);
    expect(((await init.json()) as { error: { code: number } }).error.code).toBe(ErrorCode.InvalidRequest);
  });
  it('refuses a body over the bound with 413', async () => {
    const big = JSON.stringify({ ...initialize, params: { ...initialize.params, pad: 'x'.repeat(MAX_BODY_BYTES) } });
    expect((await post({}, big)).status).toBe(413);
  });
  it('answers GET and DELETE with 405 (stateless: no stream, no session)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${base}/mcp`, { method, headers: { Accept: 'text/event-stream' } });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });
  it('applies the site`s rate limit per address: over MCP_RATE_LIMIT, the site`s 429', async () => {
    // An address of its own: on Postgres the counts live in the database, shared with this file's other calls.
    const { url, server } = await startApp({ MCP_RATE_LIMIT: '3', TRUST_PROXY: 'loopback' });
    const client = { 'X-Forwarded-For': '203.0.113.77' };
    try {
      for (let i = 0; i < 3; i++) expect((await post(client, initialize, url)).status).toBe(200);
      const refused = await post(client, initialize, url);
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual(failure(TOO_MANY_REQUESTS));
      // Every request counts, the GETs and DELETEs answered 405 too.
      const other = { 'X-Forwarded-For': '203.0.113.78' };
      for (const method of ['GET', 'DELETE', 'GET'])
        expect((await fetch(`${url}/mcp`, { method, headers: other })).status, method).toBe(405);
      expect((await post(other, initialize, url)).status).toBe(429);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe('the directory lists its own server', () => {
  it('points its seeded record at the site`s own /mcp, which /v0.1 and the tool`s answer carry', async () => {
    await listSelf(db, 'https://dir.example');
    const record = (await getServerByToolSlug(db, SITE_SERVER_SLUG))!;
    expect(record.name).toBe(SITE_SERVER_NAME);
    expect(record.remotes).toEqual([{ type: 'streamable-http', url: 'https://dir.example/mcp' }]);
    const listed = await api<{ server: { remotes: unknown } }>(
      `/v0.1/servers/${encodeURIComponent(SITE_SERVER_NAME)}/versions/latest`,
    );
    expect(listed.server.remotes).toEqual(record.remotes);
    const tool = await structured<{ mcpServer: { install: { macosLinux: { client: string; code: string }[] } } }>(
      'get_tool',
      { slug: SITE_SERVER_SLUG },
    );
    expect(tool.mcpServer.install.macosLinux.find((s) => s.client === 'claude-code')!.code).toBe(
      'claude mcp add ai-tools-directory --transport http https://dir.example/mcp',
    );
    // Written once: the same origin again changes nothing.
    expect(await listSelf(db, 'https://dir.example')).toBe(false);
  });
});
