import { Writable } from 'node:stream';
import express from 'express';
import { pino } from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { requestLogger } from './logger';

describe('request logs', () => {
  it('logs every client request: no header hides one', async () => {
    const lines: { req?: { url: string }; res?: { statusCode: number } }[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const app = express();
    app.use(requestLogger(pino({ level: 'info' }, sink)));
    app.get('/x', (_req, res) => void res.send('ok'));
    await request(app).get('/x?plain=1');
    await request(app).get('/x?hidden=1').set('x-internal-render', '1');
    await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => l.req?.url)).toEqual(['/x?plain=1', '/x?hidden=1']);
  });
});
