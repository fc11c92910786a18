import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest, Agent } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { REPO_ROOT } from '../harness';
import { queryDb } from '../db';

/**
 * Wrong bodies posted to the production server's pages: the form pages read urlencoded and multipart posts and
 * answer anything else with the form and a reason (400/413/415), never a 500; no page answers a 5xx to any
 * method, content type or body shape. The API's routes get the same set in process (api/src/badRequests.test.ts).
 */
const BASE = new URL(process.env.BASE_URL!);
const agent = new Agent({ keepAlive: true, maxSockets: 4 });
const UNSUPPORTED = 'This form can only be sent as a web form (URL-encoded or multipart).';

function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer | string = '',
): Promise<{ status: number; location?: string; text: string }> {
  const bytes = Buffer.from(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: BASE.hostname,
        port: BASE.port,
        method,
        path,
        agent,
        headers: { ...headers, 'Content-Length': bytes.length },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            location: res.headers.location,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'EPIPE' || err.code === 'ECONNRESET' ? resolve({ status: 413, text: '' }) : reject(err),
    );
    req.end(bytes);
  });
}

// The issue's own request, byte for byte.
const ISSUE_BODY = '--XbX\r\nContent-Disposition: form-data; name="email"\r\n\r\nx@y.co\r\n--XbX--\r\n';
const html = { Accept: 'text/html' };

describe('form pages and bodies that are not urlencoded', () => {
  it('a multipart post to /advertise (enctype="multipart/form-data") signs up and lands on the form page, not a 500', async () => {
    const res = await send(
      'POST',
      '/advertise',
      { ...html, 'Content-Type': 'multipart/form-data; boundary=XbX' },
      ISSUE_BODY,
    );
    assert.equal(res.status, 303);
    assert.equal(res.location, '/advertise?subscribed=1');
    const page = await send('GET', res.location!, html);
    assert.equal(page.status, 200);
    assert.match(page.text, /Advertise Your AI Tool/);
    assert.equal(queryDb<{ n: number }>('SELECT COUNT(*) AS n FROM early_access WHERE email = ?', 'x@y.co')[0]!.n, 1);
  });

  for (const path of ['/advertise', '/contact', '/submit']) {
    for (const [name, type] of [
      ['text/plain', 'text/plain'],
      ['JSON', 'application/json'],
      ['no Content-Type', undefined],
    ] as const) {
      it(`${path} with ${name}: 415 with the form and its reason, no library message`, async () => {
        const res = await send(
          'POST',
          path,
          { ...html, ...(type ? { 'Content-Type': type } : {}) },
          type === 'application/json' ? '{"email":"x@y.co"}' : ISSUE_BODY,
        );
        assert.equal(res.status, 415);
        assert.ok(res.text.includes(UNSUPPORTED), 'the reason is on the page');
        assert.match(res.text, /<form[^>]+method="post"/, 'the form is on the page');
        assert.doesNotMatch(res.text, /Failed to parse|Unexpected Application Error/);
      });
    }
  }

  it('a multipart post to /contact keeps field errors as with urlencoded (400 with the page)', async () => {
    const res = await send(
      'POST',
      '/contact',
      { ...html, 'Content-Type': 'multipart/form-data; boundary=XbX' },
      ISSUE_BODY,
    );
    assert.equal(res.status, 400);
    assert.match(res.text, /Name is required/);
  });
});

describe('other methods on a page', () => {
  it('PUT, PATCH and DELETE get 405 with the methods a page takes, OPTIONS names them', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const res = await send(method, '/advertise', html, 'email=x@y.co');
      assert.equal(res.status, 405, method);
      assert.match(res.text, /Method not allowed/);
      assert.doesNotMatch(res.text, /advertise/, 'the answer does not echo the request');
    }
    const options = await send('OPTIONS', '/contact', html);
    assert.equal(options.status, 204);
  });
});

describe('every page × method × content type × body shape', () => {
  const types: Record<string, string | undefined> = {
    none: undefined,
    urlencoded: 'application/x-www-form-urlencoded',
    multipart: 'multipart/form-data; boundary=XbX',
    text: 'text/plain',
    json: 'application/json',
    xml: 'application/xml',
    garbage: 'x-garbage/@@;;charset=no-such-charset',
  };
  const shapes: Record<string, Buffer> = {
    empty: Buffer.alloc(0),
    junk: Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 37 + 11) % 256)),
    'invalid-utf8': Buffer.concat([
      Buffer.from('email='),
      Buffer.from([0xc3, 0x28, 0xff, 0xfe]),
      Buffer.from('&name=x'),
    ]),
    huge: Buffer.alloc(200 * 1024, 'a'),
    'deep-json': Buffer.from('{"a":'.repeat(3000) + '1' + '}'.repeat(3000)),
    'bad-escapes': Buffer.from('email=%ZZ&name=%E0%A4%A&message=%'),
  };

  it('no answer is a 5xx', async () => {
    const { ROUTE_TABLE, SHELL_ROUTES } = (await import(
      join(REPO_ROOT, 'shell/platform/src/routeTable.ts')
    )) as typeof import('../../../shell/platform/src/routeTable');
    const pages = [...ROUTE_TABLE.map((r) => r.path.replace(/:\w+/g, 'cursor')), SHELL_ROUTES.admin, '/no-such-page'];
    const failures: string[] = [];
    let sent = 0;
    for (const page of pages)
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
        await Promise.all(
          Object.entries(types).flatMap(([typeName, type]) =>
            Object.entries(shapes).map(async ([shape, body]) => {
              const res = await send(method, page, { ...html, ...(type ? { 'Content-Type': type } : {}) }, body);
              sent++;
              if (res.status >= 500 || /Failed to parse/.test(res.text))
                failures.push(`${method} ${page} [${typeName}, ${shape}] -> ${res.status}`);
            }),
          ),
        );
    assert.equal(sent, pages.length * 6 * Object.keys(types).length * Object.keys(shapes).length);
    assert.deepEqual(failures, []);
  });
});

describe('requests the server cannot parse', () => {
  /** Raw bytes to the production server; its whole answer (it closes the connection). */
  const raw = (bytes: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(Number(BASE.port), BASE.hostname);
      let answer = '';
      socket.on('data', (d) => (answer += d));
      socket.on('end', () => resolve(answer));
      socket.on('error', reject);
      socket.write(bytes);
    });

  it("headers over 16 kB get 431 with a reason and the security headers, not Node's bare status line", async () => {
    const answer = await raw(`GET / HTTP/1.1\r\nHost: ${BASE.host}\r\nCookie: ${'a'.repeat(20_000)}\r\n\r\n`);
    const [head, body] = answer.split('\r\n\r\n');
    assert.match(head!, /^HTTP\/1\.1 431 /);
    assert.match(head!, /\r\nContent-Security-Policy: default-src 'none'; frame-ancestors 'none'\r\n/i);
    assert.match(head!, /\r\nX-Content-Type-Options: nosniff\r\n/i);
    assert.equal(body, 'The request headers are larger than 16 kB.\n');
  });

  it('a path that starts with // is a path, never a host: no 5xx, and no page under a host it names', async () => {
    const get = (target: string) =>
      raw(`GET ${target} HTTP/1.1\r\nHost: ${BASE.host}\r\nAccept: text/html\r\nConnection: close\r\n\r\n`);
    for (const target of ['//a:99999/', '//%zz/', '//@/', '//evil.example/tool/cursor', '//blog']) {
      const answer = await get(target);
      assert.match(answer, /^HTTP\/1\.1 404 /, `${target}: ${answer.split('\r\n')[0]}`);
      assert.doesNotMatch(answer, /Cursor \| AI Tools Directory|<h1[^>]*>Blog/, target);
    }
    // Only slashes: the router reads it as / (as a browser's would), with the home page's canonical address.
    const home = await get('///');
    assert.match(home, /^HTTP\/1\.1 200 /, home.split('\r\n')[0]);
    assert.match(home, /rel="canonical" href="https:\/\/[^"/]+"/);
  });
});
