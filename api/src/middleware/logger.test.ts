import { Writable } from 'node:stream';
import express from 'express';
import { pino } from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createLogger, requestLogger } from './logger';

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
