import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * A request Node cannot parse (headers over its 16 kB limit, a malformed request line, a client that stalls) never
 * reaches Express, and Node's own answer carries no headers but its status. This one answers it as the site answers
 * any client mistake: a status, a reason, and the security headers. The body is plain text that runs nothing, so
 * its policy allows nothing.
 */
const HEADERS = {
  'Content-Type': 'text/plain; charset=utf-8',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
  Connection: 'close',
};

const ANSWERS: Record<string, [status: number, text: string, reason: string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'The request headers are larger than 16 kB.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request did not arrive in time.'],
};
const MALFORMED: [number, string, string] = [400, 'Bad Request', 'The request is not valid HTTP.'];

export function clientErrorAnswer(code: string | undefined): string {
  const [status, text, reason] = (code && ANSWERS[code]) || MALFORMED;
  const body = `${reason}\n`;
  const head = Object.entries({ ...HEADERS, 'Content-Length': String(Buffer.byteLength(body)) })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `HTTP/1.1 ${status} ${text}\r\n${head}\r\n${body}`;
}

/** Answers the server's unparseable requests with clientErrorAnswer instead of Node's bare status line. */
export function answerClientErrors(server: Server): Server {
  return server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // A reset connection, or one whose answer has already begun, has nobody left to read an answer.
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    socket.end(clientErrorAnswer(err.code));
  });
}
