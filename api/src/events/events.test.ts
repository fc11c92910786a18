import { beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../app';
import { loadConfig } from '../config';
import type { DB } from '../db/connection';
import { countRows, openTestDatabase } from '../../test/testDatabase';
import { createLogger } from '../middleware/logger';
import { insertEvent } from './repository';

let app: Express;
let db: DB;

beforeAll(async () => {
  db = await openTestDatabase();
  app = await createApp({
    config: loadConfig({ ...process.env, NODE_ENV: 'test' }),
    db,
    logger: createLogger('silent'),
    pages: false,
  });
});

describe('POST /api/events', () => {
  it('stores a valid tool_page_view event', async () => {
    const body = {
      event: 'tool_page_view',
      data: { toolName: 'Cursor', slug: 'cursor' },
      timestamp: '2026-11-23T10:00:00.000Z',
    };
    const sent = Date.now();
    const res = await request(app).post('/api/events').send(body);
    const answered = Date.now();
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true });
    const row = await db
      .selectFrom('events')
      .select(['event', 'data', 'timestamp', 'received_at'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ event: 'tool_page_view', data: JSON.stringify(body.data), timestamp: body.timestamp });
    // Received on the server's clock while the request was under way (not the client's timestamp).
    expect(Date.parse(row.received_at!)).toBeGreaterThanOrEqual(sent);
    expect(Date.parse(row.received_at!)).toBeLessThanOrEqual(answered);
  });

  it.each([
    ['an unknown event', { event: 'click', data: {}, timestamp: '2026-11-23T10:00:00Z' }, 'event'],
    ['missing data', { event: 'tool_page_view', timestamp: '2026-11-23T10:00:00Z' }, 'data'],
    ['data that is not an object', { event: 'tool_page_view', data: 'x', timestamp: '2026-11-23T10:00:00Z' }, 'data'],
    ['a timestamp that is not a date', { event: 'tool_page_view', data: {}, timestamp: 'yesterday-ish' }, 'timestamp'],
    [
      'a timestamp "0" (Date.parse reads it as the year 2000)',
      { event: 'tool_page_view', data: {}, timestamp: '0' },
      'timestamp',
    ],
    ['a timestamp on February 30', { event: 'tool_page_view', data: {}, timestamp: '2026-02-30' }, 'timestamp'],
    [
      'a date and time on February 30',
      { event: 'tool_page_view', data: {}, timestamp: '2026-02-30T10:00:00Z' },
      'timestamp',
    ],
    [
      'February 29 of a common year',
      { event: 'tool_page_view', data: {}, timestamp: '2025-02-29T10:00:00Z' },
      'timestamp',
    ],
    ['hour 24', { event: 'tool_page_view', data: {}, timestamp: '2026-11-23T24:00:00Z' }, 'timestamp'],
    [
      'an instant in the year 10000 in UTC (stored, it would sort before every other date)',
      { event: 'tool_page_view', data: {}, timestamp: '9999-12-31T23:59:59-14:00' },
      'timestamp',
    ],
    [
      'a timestamp without its offset',
      { event: 'tool_page_view', data: {}, timestamp: '2026-11-23T10:00:00' },
      'timestamp',
    ],
  ])('rejects %s with 400 and field errors', async (_name, body, field) => {
    const before = await countRows(db, 'events');
    const res = await request(app).post('/api/events').send(body);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error).toBe('Invalid event');
    expect(Object.keys(res.body.fieldErrors)).toContain(field);
    expect(await countRows(db, 'events')).toBe(before);
  });

  it('names the reason of a refused timestamp', async () => {
    const res = await request(app)
      .post('/api/events')
      .send({ event: 'tool_page_view', data: {}, timestamp: '2026-02-30' });
    expect(res.body.fieldErrors).toEqual({
      timestamp: 'timestamp must be a real date and time in ISO 8601 (2026-11-23T10:00:00.000Z)',
    });
  });

  it('accepts a leap day and an offset', async () => {
    for (const timestamp of ['2024-02-29T10:00:00.123Z', '2026-11-23T10:00:00+01:00'])
      expect(
        (await request(app).post('/api/events').send({ event: 'tool_page_view', data: {}, timestamp })).status,
        timestamp,
      ).toBe(201);
  });

  it('refuses a body of another type with 415 and bytes that are not UTF-8 with 400, storing nothing', async () => {
    const before = await countRows(db, 'events');
    const text = await request(app)
      .post('/api/events')
      .set('Content-Type', 'text/plain')
      .send(JSON.stringify({ event: 'tool_page_view', data: {}, timestamp: '2026-11-23T10:00:00Z' }));
    expect([text.status, text.body]).toEqual([
      415,
      { success: false, error: 'Send the body as JSON (Content-Type: application/json)' },
    ]);
    const bytes = Buffer.concat([
      Buffer.from('{"event":"tool_page_view","data":{"slug":"a'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"},"timestamp":"2026-11-23T10:00:00Z"}'),
    ]);
    const sending = request(app).post('/api/events').set('Content-Type', 'application/json');
    sending.write(bytes);
    const invalid = await sending;
    expect([invalid.status, invalid.body]).toEqual([400, { success: false, error: 'Request body is not valid UTF-8' }]);
    expect(await countRows(db, 'events')).toBe(before);
  });

  it('rejects a body that is not JSON', async () => {
    const res = await request(app).post('/api/events').set('Content-Type', 'application/json').send('{not json');
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
  });

  it('rejects oversized data', async () => {
    const res = await request(app)
      .post('/api/events')
      .send({ event: 'tool_page_view', data: { blob: 'x'.repeat(5000) }, timestamp: '2026-11-23T10:00:00Z' });
    expect(res.status).toBe(400);
  });
});

describe('event field limits', () => {
  const event = (data: unknown) => ({ event: 'tool_page_view', data, timestamp: '2026-11-23T10:00:00Z' });

  it.each([
    ['a nested object', { tool: { name: 'x' } }],
    ['an array value', { tags: ['a'] }],
    ['a value over 1024 characters', { url: `https://x.io/${'a'.repeat(1024)}` }],
    ['data over 2000 characters in all', { a: 'x'.repeat(1000), b: 'y'.repeat(1000) }],
    ['too many fields', Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, i]))],
    ['a key that is not a short name', { 'bad key!': 1 }],
    ['a control character', { toolName: 'a\u001b[2J' }],
    ['a bidi override', { toolName: 'a\u202Eb' }],
  ])('rejects %s and stores nothing', async (_name, data) => {
    const before = await countRows(db, 'events');
    const res = await request(app).post('/api/events').send(event(data));
    expect(res.status).toBe(400);
    expect(await countRows(db, 'events')).toBe(before);
  });

  it('refuses a __proto__ key (which the record schema would leave out without a word), stores nothing and pollutes nothing', async () => {
    const before = await countRows(db, 'events');
    const res = await request(app)
      .post('/api/events')
      .set('Content-Type', 'application/json')
      .send(
        '{"event":"tool_page_view","data":{"__proto__":{"polluted":1},"slug":"a"},"timestamp":"2026-11-23T10:00:00Z"}',
      );
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors).toEqual({ data: 'keys must be short names' });
    expect(await countRows(db, 'events')).toBe(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('says why a value is refused: the text rule it breaks, or what a value may be', async () => {
    const post = (data: unknown) =>
      request(app).post('/api/events').send({ event: 'tool_page_view', data, timestamp: '2026-11-23T10:00:00Z' });
    expect((await post({ toolName: 'a\u202eb' })).body.fieldErrors).toEqual({
      data: 'values contains a text-direction control (U+202E), which is not allowed',
    });
    expect((await post({ toolName: { nested: 1 } })).body.fieldErrors).toEqual({
      data: 'values must be text, a number, true, false or null',
    });
  });

  it('accepts the fields the tool page sends', async () => {
    const res = await request(app)
      .post('/api/events')
      .send(event({ toolName: 'Cursor', slug: 'cursor', category: 'Code', url: 'https://localhost/tool/cursor' }));
    expect(res.status).toBe(201);
  });
});

describe('events limit and retention', () => {
  it('has its own budget, validated before counting', async () => {
    // On Postgres the counts live in the database, shared with the suite's other app: start from none.
    await db.deleteFrom('rate_limits').execute();
    const limited = await createApp({
      config: loadConfig({ ...process.env, NODE_ENV: 'test', EVENTS_RATE_LIMIT: '2', WRITE_RATE_LIMIT: '1' }),
      db,
      logger: createLogger('silent'),
      pages: false,
    });
    const body = { event: 'tool_page_view', data: { slug: 'x' }, timestamp: '2026-11-23T10:00:00Z' };
    expect((await request(limited).post('/api/events').send({})).status).toBe(400);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await request(limited).post('/api/events').send(body)).status);
    expect(statuses).toEqual([201, 201, 429]);
    // The forms' budgets are apart from it.
    expect((await request(limited).post('/api/early-access').send({ email: 'e@v.io' })).status).toBe(200);
  });

  it('keeps at most the newest maxRows rows', async () => {
    const fresh = await openTestDatabase();
    const e = { event: 'tool_page_view' as const, data: {}, timestamp: '2026-11-23T10:00:00Z' };
    for (let i = 0; i < 25; i++) await insertEvent(fresh, e, { maxRows: 10, maxAgeDays: 90 });
    const ids = (await fresh.selectFrom('events').select('id').orderBy('id').execute()).map((r) => r.id);
    expect(ids).toEqual(Array.from({ length: 10 }, (_, i) => i + 16));
    await fresh.destroy();
  });

  it('removes rows received longer ago than maxAgeDays, whatever timestamp the client sent', async () => {
    const fresh = await openTestDatabase();
    const e = { event: 'tool_page_view' as const, data: {}, timestamp: '2099-01-01T00:00:00Z' };
    const day = 24 * 60 * 60 * 1000;
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    await insertEvent(fresh, e, { maxRows: 1000, maxAgeDays: 30 }, new Date(t0));
    await insertEvent(fresh, e, { maxRows: 1000, maxAgeDays: 30 }, new Date(t0 + 10 * day));
    await insertEvent(fresh, e, { maxRows: 1000, maxAgeDays: 30 }, new Date(t0 + 35 * day));
    expect((await fresh.selectFrom('events').select('id').orderBy('id').execute()).map((r) => r.id)).toEqual([2, 3]);
    await fresh.destroy();
  });
});
