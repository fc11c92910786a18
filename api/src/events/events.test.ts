import { beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../app';
import { loadConfig } from '../config';
import { openDatabase, type DB } from '../db/connection';
import { createLogger } from '../middleware/logger';

let app: Express;
let db: DB;

beforeAll(async () => {
  db = openDatabase(':memory:');
  app = await createApp({ config: loadConfig({ ...process.env, NODE_ENV: 'test' }), db, logger: createLogger('silent'), pages: false });
});

describe('POST /api/events', () => {
  it('stores a valid tool_page_view event', async () => {
    const body = { event: 'tool_page_view', data: { toolName: 'Cursor', slug: 'cursor' }, timestamp: '2026-11-23T10:00:00.000Z' };
    const res = await request(app).post('/api/events').send(body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true });
    const row = db.prepare('SELECT event, data, timestamp FROM events ORDER BY id DESC').get() as { event: string; data: string; timestamp: string };
    expect(row).toEqual({ event: 'tool_page_view', data: JSON.stringify(body.data), timestamp: body.timestamp });
  });

  it.each([
    ['an unknown event', { event: 'click', data: {}, timestamp: '2026-11-23T10:00:00Z' }, 'event'],
    ['missing data', { event: 'tool_page_view', timestamp: '2026-11-23T10:00:00Z' }, 'data'],
    ['data that is not an object', { event: 'tool_page_view', data: 'x', timestamp: '2026-11-23T10:00:00Z' }, 'data'],
    ['a timestamp that is not a date', { event: 'tool_page_view', data: {}, timestamp: 'yesterday-ish' }, 'timestamp'],
  ])('rejects %s with 400 and field errors', async (_name, body, field) => {
    const before = (db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
    const res = await request(app).post('/api/events').send(body);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error).toBe('Invalid event');
    expect(Object.keys(res.body.fieldErrors)).toContain(field);
    expect((db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n).toBe(before);
  });

  it('rejects a body that is not JSON', async () => {
    const res = await request(app).post('/api/events').set('Content-Type', 'application/json').send('{not json');
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
  });

  it('rejects oversized data', async () => {
    const res = await request(app).post('/api/events').send({ event: 'tool_page_view', data: { blob: 'x'.repeat(5000) }, timestamp: '2026-11-23T10:00:00Z' });
    expect(res.status).toBe(400);
  });
});
