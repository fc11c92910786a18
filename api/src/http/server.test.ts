import type { Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_TIMEOUTS, createSiteServer } from './server';

describe('a slow client', () => {
  let server: Server;
  beforeAll(async () => {
    // The site's rule with short times, so the test does not wait a minute.
    server = createSiteServer((req, res) => void req.resume().on('end', () => res.end('ok')), {
      headersTimeout: 400,
      requestTimeout: 800,
      keepAliveTimeout: 200,
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  /** Sends `first`, then a byte every 100 ms until the server answers or closes; its answer. */
  const trickle = (first: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
      let answer = '';
      const drip = setInterval(() => socket.writable && socket.write('a'), 100);
      socket.on('data', (d) => (answer += d));
      socket.on('close', () => {
        clearInterval(drip);
        resolve(answer);
      });
      socket.on('error', reject);
      socket.write(first);
    });

  it('trickling a body past the request timeout gets 408 and loses the connection', async () => {
    const answer = await trickle('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  });

  it('trickling headers past the headers timeout gets 408', async () => {
    const answer = await trickle('GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  });

  it("the site's own times: 20 s for headers, 60 s for a request, 5 s idle", () => {
    expect(CLIENT_TIMEOUTS).toEqual({ headersTimeout: 20_000, requestTimeout: 60_000, keepAliveTimeout: 5_000 });
  });
});
