import { inspectionConfig } from '../config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListPromptsRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ServerJson } from '@aitools/contracts/mcp';
import type { DB } from '../db/connection';
import { openTestDatabase } from '../../test/testDatabase';
import { startRemoteMcp, type RemoteMcp } from '../../test/remoteMcpServer';
import { seed } from '../seed';
import { DEFAULT_GUARD, type GuardOptions } from '../http/ssrfGuard';
import { getInspection, seedInspections } from './inspections';
import { DEFAULT_LIMITS } from './inspector';
import { inspectRemote, remoteOf } from './remote';
import { inspectRemotes } from './remoteInspections';
import { inspectAndWrite, inspectRecord } from './inspect';
import { listAudit } from '../content/audit';
import { dataVersion } from '../content/dataVersion';

let db: DB;
let remote: RemoteMcp;
const allowLocal: GuardOptions = { ...DEFAULT_GUARD, allow: ['127.0.0.1'], timeoutMs: 5000 };
const record = (url: string, type: 'streamable-http' | 'sse' = 'streamable-http'): ServerJson =>
  ({ name: 'io.example/remote', description: 'A remote.', version: '2.0.0', remotes: [{ type, url }] }) as ServerJson;

/** Points the seeded remote-only server (Linear's) at the given address. */
async function pointLinearAt(url: string) {
  const row = await db
    .selectFrom('mcp_servers')
    .select('doc')
    .where('tool_slug', '=', 'linear-mcp-server')
    .executeTakeFirstOrThrow();
  const doc = { ...(JSON.parse(row.doc) as ServerJson), remotes: [{ type: 'streamable-http', url }] };
  await db
    .updateTable('mcp_servers')
    .set({ doc: JSON.stringify(doc) })
    .where('tool_slug', '=', 'linear-mcp-server')
    .execute();
}

/** A remote whose tools/list and prompts/list answer one item of `pageBytes` a page, for as many pages as given
 *  (Infinity: always a next page). */
async function startPagedRemote(pageBytes: number, pages: { tools: number; prompts: number }) {
  const state = { url: '', asked: 0 };
  const page = (n: number, last: number) => {
    state.asked++;
    return {
      name: `item_${n}`,
      description: 'x'.repeat(pageBytes),
      ...(n < last ? { nextCursor: String(n + 1) } : {}),
    };
  };
  const at = (cursor?: string) => Number(cursor ?? 1);
  const http = createServer((req, res) => {
    const mcp = new Server({ name: 'paged', version: '1.0.0' }, { capabilities: { tools: {}, prompts: {} } });
    mcp.setRequestHandler(ListToolsRequestSchema, ({ params }) => {
      const { nextCursor, ...tool } = page(at(params?.cursor), pages.tools);
      return { tools: [{ ...tool, inputSchema: { type: 'object' as const } }], nextCursor };
    });
    mcp.setRequestHandler(ListPromptsRequestSchema, ({ params }) => {
      const { nextCursor, ...prompt } = page(at(params?.cursor), pages.prompts);
      return { prompts: [prompt], nextCursor };
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void mcp.close());
    void mcp.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  const close = () =>
    new Promise<void>((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    });
  return { state, close };
}

beforeAll(async () => {
  db = await openTestDatabase();
  await seed(db);
  remote = await startRemoteMcp({
    tools: [
      { name: 'search_pages', description: 'Searches the pages.' },
      { name: 'read_page', description: 'Reads a page.' },
    ],
  });
});

afterAll(async () => {
  await remote.close();
  await db.destroy();
});

describe('remoteOf', () => {
  it('takes the first remote that needs no value of the user, and says which credentials the others need', () => {
    expect(remoteOf(record('https://mcp.example.com/mcp'))).toEqual({
      type: 'streamable-http',
      url: 'https://mcp.example.com/mcp',
    });
    const withToken = {
      ...record('https://x.example/mcp'),
      remotes: [
        {
          type: 'streamable-http',
          url: 'https://x.example/mcp',
          headers: [{ name: 'Authorization', isRequired: true, value: 'Bearer {token}' }],
        },
      ],
    } as ServerJson;
    expect(remoteOf(withToken)).toEqual({ skip: 'needs credentials (Authorization)' });
    expect(remoteOf({ ...record('x'), remotes: undefined } as ServerJson)).toBeNull();
  });
});

describe('inspectRemote', () => {
  it('lists the tools of a Streamable HTTP server, in the shape of a package inspection', async () => {
    const inspection = await inspectRemote(record(remote.url), allowLocal, 5000, '2026-12-02');
    expect(inspection).toMatchObject({
      status: 'inspected',
      remote: { type: 'streamable-http', url: remote.url },
      version: '2.0.0',
      inspectedAt: '2026-12-02',
      serverInfo: { name: 'test-remote', version: '1.0.0' },
    });
    expect(inspection?.status === 'inspected' && inspection.tools.map((t) => t.name)).toEqual([
      'search_pages',
      'read_page',
    ]);
  });

  it('lists the tools of a server over the SSE transport', async () => {
    const inspection = await inspectRemote(record(remote.url.replace(/\/mcp$/, '/sse'), 'sse'), allowLocal, 5000);
    expect(inspection).toMatchObject({ status: 'inspected', remote: { type: 'sse' } });
    expect(inspection?.status === 'inspected' && inspection.tools.map((t) => t.name)).toEqual([
      'search_pages',
      'read_page',
    ]);
  });

  it('refuses a loopback address not on the allow-list, with the reason and without a request', async () => {
    const before = remote.requests;
    const inspection = await inspectRemote(record(remote.url), DEFAULT_GUARD, 5000, '2026-12-02');
    expect(inspection).toEqual({
      status: 'not-inspected',
      reason: '127.0.0.1 is a loopback address (not on the allow-list)'.replace(/^/, 'refused: '),
      checkedAt: '2026-12-02',
      remote: { type: 'streamable-http', url: remote.url },
      version: '2.0.0',
    });
    expect(remote.requests).toBe(before);
  });

  it.each([
    ['pages its tools forever', { tools: Infinity, prompts: 0 }],
    ['goes over in its prompts, its tools within', { tools: 2, prompts: Infinity }],
  ])(
    'fails a server whose lists come to more than a package`s output total (one that %s)',
    async (_, pages) => {
      const total = DEFAULT_LIMITS.maxStdoutBytes;
      // Each answer within the guard's bound.
      const pageBytes = Math.floor(allowLocal.maxBytes * 0.8);
      const paged = await startPagedRemote(pageBytes, pages);
      try {
        const inspection = await inspectRemote(record(paged.state.url), allowLocal, 20_000, '2026-12-02');
        expect(inspection).toEqual({
          status: 'not-inspected',
          reason: `its lists came to more than ${total} bytes`,
          checkedAt: '2026-12-02',
          remote: { type: 'streamable-http', url: paged.state.url },
          version: '2.0.0',
        });
        // Asked no further than the page that went over.
        expect(paged.state.asked).toBe(Math.ceil(total / pageBytes));
      } finally {
        await paged.close();
      }
    },
    30_000,
  );

  it('refuses a server that redirects to a loopback address', async () => {
    const redirecting = await startRemoteMcp();
    redirecting.mode = { redirectTo: remote.url };
    try {
      // The redirecting server is allowed by its name; where it sends the client is not.
      const guard: GuardOptions = {
        ...DEFAULT_GUARD,
        allow: ['redirector.test'],
        resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      };
      const inspection = await inspectRemote(
        record(`http://redirector.test:${redirecting.port}/mcp`),
        guard,
        5000,
        '2026-12-02',
      );
      expect(inspection?.status).toBe('not-inspected');
      expect(inspection?.status === 'not-inspected' && inspection.reason).toContain(
        `the redirect to ${remote.url} was refused: 127.0.0.1 is a loopback address (not on the allow-list)`,
      );
    } finally {
      await redirecting.close();
    }
  });
});

describe('inspectRecord', () => {
  it('asks a record with no package over its remote, with the outbound settings it is given', async () => {
    // The sandbox is never reached: a record with no package is asked over its remote.
    const runner = { sandbox: inspectionConfig({ INSPECT_BWRAP: '/nonexistent/bwrap' }) };
    const inspection = await inspectRecord(record(remote.url), { runner, outbound: allowLocal, today: '2026-12-02' });
    expect(inspection).toMatchObject({ status: 'inspected', remote: { url: remote.url }, version: '2.0.0' });
    // Given settings without the allow-list, the same record is refused (they are not read from the environment).
    expect(await inspectRecord(record(remote.url), { runner, outbound: DEFAULT_GUARD })).toMatchObject({
      status: 'not-inspected',
      reason: 'refused: 127.0.0.1 is a loopback address (not on the allow-list)',
    });
  });
});

describe('inspectRemotes', () => {
  it('writes the inspection to the table the page reads, moves the data version, and the seed keeps it', async () => {
    await pointLinearAt(remote.url);
    const version = await dataVersion(db);
    const lines = await inspectRemotes(db, allowLocal, { slugs: ['linear-mcp-server'] });
    expect(lines).toEqual(['linear-mcp-server: 2 tools, 0 prompts, 0 resources']);
    expect(await dataVersion(db)).toBeGreaterThan(version);
    const stored = await getInspection(db, 'linear-mcp-server');
    expect(stored?.status === 'inspected' && stored.tools.map((t) => t.name)).toEqual(['search_pages', 'read_page']);
    const snapshots = await db
      .selectFrom('check_snapshots')
      .select('version')
      .where('tool_slug', '=', 'linear-mcp-server')
      .execute();
    expect(snapshots).toHaveLength(1);
    // A restart's seed loads the inspections file, which says nothing of this remote's tools: they stay.
    await seedInspections(db);
    expect((await getInspection(db, 'linear-mcp-server'))?.status).toBe('inspected');
  });

  it('keeps the earlier inspection of the same version when the remote stops answering', async () => {
    await pointLinearAt(remote.url);
    remote.mode = 'html';
    try {
      const lines = await inspectRemotes(db, allowLocal, { slugs: ['linear-mcp-server'] });
      expect(lines[0]).toMatch(/^linear-mcp-server: not inspected: it did not answer over MCP/);
      expect((await getInspection(db, 'linear-mcp-server'))?.status).toBe('inspected');
    } finally {
      remote.mode = 'mcp';
    }
  });
});

describe('which job asks remotes', () => {
  it('the inspect job`s run leaves a remote server to inspect-remotes; the terminal`s inspect asks it, audited', async () => {
    await pointLinearAt(remote.url);
    await db.deleteFrom('mcp_inspections').where('tool_slug', '=', 'linear-mcp-server').execute();
    const asked = remote.requests;
    const lines: string[] = [];
    const options = { unsandboxed: true, outbound: allowLocal, log: (line: string) => lines.push(line) };
    await inspectAndWrite(db, ['linear-mcp-server'], { ...options, packagesOnly: true, actor: 'job:inspect' });
    expect(lines).toEqual(['linear-mcp-server: a remote server, left to the inspect-remotes job']);
    expect(remote.requests).toBe(asked);
    expect(await getInspection(db, 'linear-mcp-server')).toBeNull();

    await inspectAndWrite(db, ['linear-mcp-server'], { ...options, actor: 'cli:tester' });
    expect(lines[1]).toBe('linear-mcp-server: 2 tools, 0 prompts, 0 resources');
    expect((await getInspection(db, 'linear-mcp-server'))?.status).toBe('inspected');
    const { entries } = await listAudit(db, { actor: 'cli:tester' });
    expect(entries).toMatchObject([
      { action: 'inspection.update', target: 'server linear-mcp-server', summary: lines[1] },
    ]);
  });
});
