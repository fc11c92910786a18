import { request as httpRequest, Agent, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_TABLE, SHELL_ROUTES } from '@aitools/platform/routes';
import { createApp, type SiteApp } from './app';
import { loadConfig } from './config';
import { openTestDatabase } from '../test/testDatabase';
import { seed } from './seed';
import { createLogger } from './middleware/logger';
import { recordMountedApps, routesOf } from '../test/routeList';

/**
 * A client's mistake is a 4xx, never a 5xx: every route the routers declare (and every page of the route table)
 * × every method × content type × body shape, against the app in process, through the server's own handler.
 * The pages' rendering (a built shell and releases) is covered by the e2e spec bad-requests.
 */
let server: Server;
let app: SiteApp;
let routes: string[];
const agent = new Agent({ keepAlive: true, maxSockets: 8 });

/** Over every body limit the site has (the largest: a page's form post, 64 kB). */
const HUGE = 200 * 1024;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const TYPES: Record<string, string | undefined> = {
  none: undefined,
  urlencoded: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data; boundary=XbX',
  text: 'text/plain',
  json: 'application/json',
  xml: 'application/xml',
  garbage: 'x-garbage/@@;;charset=no-such-charset',
};
const INVALID_UTF8 = Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xf0, 0x28, 0x8c, 0xbc, 0xff, 0xfe]);
/** A field the forms know, holding the shape's text, in the content type's own framing. */
function framed(type: string, value: Buffer): Buffer {
  if (type === 'urlencoded') return Buffer.concat([Buffer.from('name='), value, Buffer.from('&email=x@y.co')]);
  if (type === 'multipart')
    return Buffer.concat([
      Buffer.from('--XbX\r\nContent-Disposition: form-data; name="name"\r\n\r\n'),
      value,
      Buffer.from('\r\n--XbX--\r\n'),
    ]);
  if (type === 'json') return Buffer.concat([Buffer.from('{"name":"'), value, Buffer.from('"}')]);
  if (type === 'xml') return Buffer.concat([Buffer.from('<name>'), value, Buffer.from('</name>')]);
  return value;
}
const SHAPES: Record<string, (type: string) => { body: Buffer; query?: string }> = {
  empty: () => ({ body: Buffer.alloc(0) }),
  junk: () => ({ body: Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 37 + 11) % 256)) }),
  'invalid-utf8': (type) => ({ body: framed(type, INVALID_UTF8) }),
  huge: (type) => ({ body: framed(type, Buffer.alloc(HUGE, 'a')) }),
  'deep-json': () => ({
    body: Buffer.from('{"a":'.repeat(3000) + '['.repeat(3000) + ']'.repeat(3000) + '}'.repeat(3000)),
  }),
  'bad-escapes': (type) => ({
    body: framed(type, Buffer.from('%ZZ%E0%A4%A%FF%')),
    query: 'q=%ZZ%E0%A4%A%&search=%FF&limit=%',
  }),
};

/** A concrete address for a declared path: parameters filled, with a known slug where there is one. */
const concrete = (path: string) =>
  path
    .replace(/\*\w+/g, 'x')
    .replace(/[{}]/g, '')
    .replace(/:(\w+)/g, (_, name: string) => (name === 'slug' ? 'cursor' : 'x'));

function send(
  method: string,
  path: string,
  type: string | undefined,
  body: Buffer,
): Promise<{ status: number; text: string }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: {
          Accept: 'text/html,application/json;q=0.9,*/*;q=0.8',
          ...(type ? { 'Content-Type': type } : {}),
          'Content-Length': body.length,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    // A server that answers before reading a huge body (413) may close the socket under the rest of it.
    req.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'EPIPE' || err.code === 'ECONNRESET' ? resolve({ status: 413, text: '' }) : reject(err),
    );
    req.end(body);
  });
}

beforeAll(async () => {
  const db = await openTestDatabase();
  await seed(db);
  const recording = recordMountedApps();
  try {
    // Limits high enough that the budget is not what answers: the bodies themselves must be refused.
    app = await createApp({
      config: loadConfig({ NODE_ENV: 'test', WRITE_RATE_LIMIT: '100000', EVENTS_RATE_LIMIT: '100000' }),
      db,
      logger: createLogger('silent'),
      pages: false,
    });
  } finally {
    recording.stop();
  }
  const declared = routesOf(app, recording.mounted).map((r) => concrete(r.path));
  const pages = [...ROUTE_TABLE.map((r) => concrete(r.path)), SHELL_ROUTES.admin];
  routes = [...new Set([...declared, ...pages, '/remotes/legal/1.0.0-r1/remoteEntry.js', '/no-such-page'])].sort();
  await new Promise<void>((resolve) => (server = createServer(app.handler).listen(0, '127.0.0.1', () => resolve())));
}, 60_000);
afterAll(async () => {
  agent.destroy();
  await new Promise((resolve) => server.close(resolve));
});

describe('the generated bad-request set', () => {
  it('enumerates the API routes from the routers', () => {
    for (const expected of [
      '/api/health',
      '/api/tools',
      '/api/tools/cursor',
      '/api/submissions',
      '/api/contact/submit',
      '/api/early-access',
      '/api/events',
      '/v0.1/servers',
      '/sitemap.xml',
      '/remotes.json',
    ])
      expect(routes).toContain(expected);
    expect(routes.length).toBeGreaterThan(25);
  });

  it.each(Object.keys(SHAPES))(
    'body shape %s: no route, method or content type gets a 5xx or a library message',
    async (shape) => {
      const failures: string[] = [];
      let sent = 0;
      for (const route of routes) {
        await Promise.all(
          METHODS.flatMap((method) =>
            Object.entries(TYPES).map(async ([typeName, type]) => {
              const { body, query } = SHAPES[shape]!(typeName);
              const path = query ? `${route}?${query}` : route;
              const res = await send(method, path, type, body);
              sent++;
              // A stack frame names a file with its line and column; data may well say "at selection (".
              const leak =
                /Failed to parse|Unexpected token|SyntaxError|TypeError|RangeError|ENOENT|node_modules|at \S+ \(\S+:\d+:\d+\)/.exec(
                  res.text,
                );
              if (res.status >= 500 || leak)
                failures.push(`${method} ${path} [${typeName}] -> ${res.status}${leak ? ` (${leak[0]})` : ''}`);
            }),
          ),
        );
      }
      expect(sent).toBe(routes.length * METHODS.length * Object.keys(TYPES).length);
      expect(failures).toEqual([]);
    },
    180_000,
  );
});
