import { createServer, request, type RequestListener, type Server } from 'node:http';
import { duplexPair } from 'node:stream';
import type { JsonApi, JsonRequest, JsonResult } from '@aitools/platform/contract';

/**
 * The API as loaders and actions see it on the server: the JSON API app the browser calls at /api, asked over a real
 * HTTP exchange on an in-memory connection (a pair of streams: no port, no socket, no second request log line, and
 * Node's own request and response objects, so nothing is patched). The connection carries the visitor's address,
 * so the write limits count the visitor, not the server. No Accept-Encoding is sent: bytes that never leave the
 * process are never compressed.
 */
export function inProcessApi(apiApp: RequestListener): (clientAddress: string | undefined) => JsonApi {
  // Never listens: it parses what arrives on each in-memory connection and hands it to the app.
  const server = createServer(apiApp);
  return (clientAddress) => ({
    fetchJson: (path, init) => exchange(server, path, init, clientAddress ?? '127.0.0.1'),
  });
}

function exchange<T>(
  server: Server,
  path: string,
  init: JsonRequest | undefined,
  clientAddress: string,
): Promise<JsonResult<T>> {
  const connect = () => {
    const [client, connection] = duplexPair();
    Object.assign(connection, { remoteAddress: clientAddress });
    server.emit('connection', connection);
    return client;
  };
  const payload = init?.body !== undefined ? JSON.stringify(init.body) : undefined;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        createConnection: connect,
        method: init?.method ?? 'GET',
        path,
        headers: {
          accept: 'application/json',
          ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
          ...init?.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const status = res.statusCode ?? 500;
          resolve({ ok: status >= 200 && status < 300, status, body: parseJson<T>(Buffer.concat(chunks)) });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The answer's JSON, or null for a body that is not JSON (the caller reads the status). */
function parseJson<T>(bytes: Buffer): T | null {
  try {
    return JSON.parse(bytes.toString('utf8')) as T;
  } catch {
    return null;
  }
}
