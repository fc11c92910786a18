import type { IncomingMessage, ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import express from 'express';
import { pino } from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createLogger, LOGGED_URL_MAX, logAnswered, requestLogger } from './logger';

/** An app with the request logger writing into `lines`. */
function loggedApp<T>(lines: T[]) {
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)) as T);
      done();
    },
  });
  const app = express();
  app.use(requestLogger(pino({ level: 'info' }, sink)));
  return app;
}

describe('request logs', () => {
  it('logs every client request: no header hides one', async () => {
    const lines: { req?: { url: string }; res?: { statusCode: number } }[] = [];
    const app = loggedApp(lines);
    app.get('/x', (_req, res) => void res.send('ok'));
    await request(app).get('/x?plain=1');
    await request(app).get('/x?hidden=1').set('x-internal-render', '1');
    await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => l.req?.url)).toEqual(['/x?plain=1', '/x?hidden=1']);
  });

  it('logs immutable files only at debug level when they are served, and their failures at warn', async () => {
    const lines: { level: number; req?: { url: string } }[] = [];
    const app = loggedApp(lines);
    app.get(/.*/, (req, res) => void (req.path.endsWith('missing.js') ? res.sendStatus(404) : res.send('ok')));
    for (const path of [
      '/assets/app.js',
      '/remotes/blog/1/remoteEntry.js',
      '/logos/x.svg',
      '/og/tool/x.png',
      '/covers/x.png',
      '/assets/missing.js',
      '/tool/x',
      '/api/tools',
    ]) {
      await request(app).get(path);
    }
    await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => [l.req?.url, l.level])).toEqual([
      ['/assets/missing.js', 40],
      ['/tool/x', 30],
      ['/api/tools', 30],
    ]);
  });
});

describe('log formats', () => {
  const capture = () => {
    const text: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        text.push(String(chunk));
        done();
      },
    });
    return { text, sink };
  };

  it('writes JSON lines for collectors, and one readable line per entry in a terminal', async () => {
    const json = capture();
    createLogger('info', 'json', json.sink).info({ remote: 'blog' }, 'release served');
    expect(JSON.parse(json.text.join(''))).toMatchObject({ level: 30, remote: 'blog', msg: 'release served' });

    const readable = capture();
    createLogger('info', 'pretty', readable.sink).warn({ remote: 'blog' }, 'release served');
    await new Promise((r) => setImmediate(r));
    const line = readable.text.join('');
    expect(line).toMatch(/^\[\d\d:\d\d:\d\d\] WARN: release served \{"remote":"blog"\}\n$/);
  });
});

describe('nothing secret in a log line', () => {
  type Line = { req?: { url: string }; err?: Record<string, unknown>; msg?: string };

  it('redacts invitation and recovery tokens, preview signatures and every credential-like query parameter', async () => {
    const lines: Line[] = [];
    const app = loggedApp(lines);
    app.get(/.*/, (_req, res) => void res.send('ok'));
    const secrets = ['inviteSecretAbc', 'previewSig0123', 'tok-9f8e', 'keyvalue77', 'sessSecret1', 'accessTok22'];
    await request(app).get(`/invite/${secrets[0]}`);
    await request(app).get(`/__preview/post/hello?exp=1900000000&sig=${secrets[1]}`);
    await request(app).get(`/__preview/blog/r1?exp=1&sig=${secrets[1]}&token=${secrets[2]}&apiKey=${secrets[3]}`);
    await request(app).get(`/x?session_id=${secrets[4]}&access%5Ftoken=${secrets[5]}&q=colors`);
    await request(app).get(`/INVITE/${secrets[0]}`);
    await request(app).get(`/%69nvite/${secrets[0]}`);
    await new Promise((r) => setImmediate(r));
    const text = JSON.stringify(lines);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(lines.map((l) => l.req?.url)).toEqual([
      '/invite/[redacted]',
      '/__preview/post/hello?exp=1900000000&sig=[redacted]',
      '/__preview/blog/r1?exp=1&sig=[redacted]&token=[redacted]&apiKey=[redacted]',
      '/x?session_id=[redacted]&access%5Ftoken=[redacted]&q=colors',
      '/invite/[redacted]',
      '/invite/[redacted]',
    ]);
  });

  it('redacts the front lane’s lines by the same rule', () => {
    const lines: Line[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)) as Line);
        done();
      },
    });
    const req = { method: 'GET', url: '/invite/frontSecret?sig=frontSig' } as IncomingMessage;
    logAnswered(pino({ level: 'info' }, sink), req, { statusCode: 200 } as ServerResponse, Date.now());
    expect(lines.map((l) => l.req?.url)).toEqual(['/invite/[redacted]?sig=[redacted]']);
  });

  it('cuts a long address at a fixed length and says how much was cut', async () => {
    const lines: Line[] = [];
    const app = loggedApp(lines);
    app.get(/.*/, (_req, res) => void res.send('ok'));
    const long = `/search?q=${'a'.repeat(5000)}`;
    await request(app).get(long);
    await new Promise((r) => setImmediate(r));
    const url = lines[0]!.req!.url;
    expect(url).toBe(`${long.slice(0, LOGGED_URL_MAX)}…[cut: ${long.length - LOGGED_URL_MAX} more characters]`);
  });

  it('never logs a request body, not even the one a failed parse carries', async () => {
    const lines: Line[] = [];
    const app = loggedApp(lines);
    app.post('/x', express.json(), (_req, res) => void res.send('ok'));
    app.use(((err, req, res, _next) => {
      req.log.error({ err }, 'request failed');
      res.status(500).end();
    }) as express.ErrorRequestHandler);
    await request(app).post('/x').set('Content-Type', 'application/json').send('{"password":"hunter2-secret"');
    await new Promise((r) => setImmediate(r));
    expect(lines.some((l) => l.err)).toBe(true);
    expect(JSON.stringify(lines)).not.toContain('hunter2-secret');
  });

  it('keeps bodies out of the loggers made by createLogger too', () => {
    const text: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        text.push(String(chunk));
        done();
      },
    });
    const err = Object.assign(new SyntaxError('Unexpected end'), { body: '{"token":"leaked-body"' });
    createLogger('info', 'json', sink).error({ err }, 'failed');
    expect(text.join('')).toContain('Unexpected end');
    expect(text.join('')).not.toContain('leaked-body');
  });
});
