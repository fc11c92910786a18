import express from 'express';
import request from 'supertest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DB } from '../db/connection';
import { testDatabaseLocation } from '../../test/testDatabase';
import { createRateLimits, TOO_MANY_REQUESTS } from './rateLimit';
import { databaseRateLimits } from './rateLimitStore';

// Two "instances" (apps with their own connections) on one database: an SQLite file, or Postgres when
// TEST_DATABASE_URL is set.
let dir: string;
let dbs: DB[] = [];

function instance(db: DB) {
  const app = express();
  const limits = createRateLimits({ formsPerMinute: 2, eventsPerMinute: 5, store: databaseRateLimits(db) });
  app.post('/contact', limits.contact, (_req, res) => void res.json({ success: true }));
  app.post('/submissions', limits.submissions, (_req, res) => void res.json({ success: true }));
  return app;
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rate-limits-'));
  const location = await testDatabaseLocation(join(dir, 'site.sqlite'));
  dbs = [await openDatabase(location), await openDatabase(location)];
});
afterEach(async () => {
  for (const db of dbs) await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('write rate limits counted in the database', () => {
  it('one limit across instances: the third post within the minute is refused whichever instance takes it', async () => {
    const [a, b] = dbs.map(instance) as [express.Express, express.Express];
    expect((await request(a).post('/contact')).status).toBe(200);
    expect((await request(b).post('/contact')).status).toBe(200);
    const third = await request(a).post('/contact');
    expect(third.status).toBe(429);
    expect(third.body).toEqual({ success: false, error: TOO_MANY_REQUESTS });
    expect((await request(b).post('/contact')).status).toBe(429);
    // Each budget counts on its own.
    expect((await request(b).post('/submissions')).status).toBe(200);
  });

  it('a new window starts at one once the last has ended', async () => {
    const [a] = dbs.map(instance) as [express.Express];
    await request(a).post('/contact');
    await request(a).post('/contact');
    expect((await request(a).post('/contact')).status).toBe(429);
    // The minute is over.
    await dbs[0]!
      .updateTable('rate_limits')
      .set({ reset_at: Date.now() - 1 })
      .execute();
    const next = await request(a).post('/contact');
    expect(next.status).toBe(200);
    expect(next.headers['ratelimit']).toMatch(/r=1\b/);
  });
});
