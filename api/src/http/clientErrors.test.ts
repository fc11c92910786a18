import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerClientErrors } from './clientErrors';

/** Writes raw bytes to the server and reads its whole answer (it closes the connection). */
function raw(server: Server, bytes: string): Promise<string> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => (answer += d));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.write(bytes);
  });
}

describe('requests Node cannot parse', () => {
  let server: Server;
  beforeAll(async () => {
    server = answerClientErrors(createServer((_req, res) => res.end('ok')));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const securityHeaders = (answer: string) => {
    const head = answer.split('\r\n\r\n')[0]!.toLowerCase();
    expect(head).toContain("content-security-policy: default-src 'none'; frame-ancestors 'none'");
    expect(head).toContain('x-content-type-options: nosniff');
    expect(head).toContain('x-frame-options: deny');
    expect(head).toContain('referrer-policy: no-referrer');
  };

  it('answers headers over 16 kB with 431, a reason and the security headers', async () => {
    const answer = await raw(server, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(answer).toMatch(/\r\n\r\nThe request headers are larger than 16 kB\.\n$/);
    securityHeaders(answer);
  });

  it('answers a malformed request with 400, a reason and the security headers', async () => {
    const answer = await raw(server, 'NOT HTTP AT ALL\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer).toMatch(/\r\n\r\nThe request is not valid HTTP\.\n$/);
    securityHeaders(answer);
  });

  it('still answers a well-formed request through the app', async () => {
    const answer = await raw(server, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\n(?:2\r\n)?ok/);
  });
});
