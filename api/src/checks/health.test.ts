import { beforeEach, describe, expect, it } from 'vitest';
import type { DB } from '../db/connection';
import { openTestDatabase } from '../../test/testDatabase';
import { failingServers, healthFacts, lastHealth, recordHealth, type HealthResult } from './health';

describe('health facts', () => {
  let db: DB;
  beforeEach(async () => {
    db = await openTestDatabase();
  });

  const day = (n: number) => new Date(Date.UTC(2026, 10, 1 + n, 12));
  const ok = (ms: number): HealthResult => ({ status: 'healthy', ms });
  const down: HealthResult = { status: 'unreachable', detail: 'connect ECONNREFUSED' };

  it('has none before the first check', async () => {
    expect(await healthFacts(db, 'x', day(0))).toBeUndefined();
  });

  it('gives the last check, the 30-day uptime and the median time of the healthy checks', async () => {
    await recordHealth(db, [{ slug: 'x', result: ok(500), at: day(-40) }]); // older than 30 days: not counted
    await recordHealth(db, [{ slug: 'x', result: ok(100), at: day(1) }]);
    await recordHealth(db, [{ slug: 'x', result: ok(300), at: day(2) }]);
    await recordHealth(db, [{ slug: 'x', result: down, at: day(3) }]);
    await recordHealth(db, [{ slug: 'x', result: ok(200), at: day(4) }]);
    expect(await healthFacts(db, 'x', day(5))).toEqual({
      last: { at: day(4).toISOString(), status: 'healthy', ms: 200 },
      checks30d: 4,
      uptime30d: 0.75,
      medianMs: 200,
    });
    expect((await lastHealth(db)).get('x')).toBe('healthy');
  });

  it('flags a server whose every check failed for 7 days, from its first failing check', async () => {
    await recordHealth(db, [{ slug: 'y', result: ok(100), at: day(0) }]);
    await recordHealth(db, [{ slug: 'y', result: down, at: day(1) }]);
    await recordHealth(db, [{ slug: 'y', result: down, at: day(7) }]);
    expect((await healthFacts(db, 'y', day(7)))?.failingSince).toBeUndefined();
    expect(await failingServers(db, day(7))).toEqual([]);
    await recordHealth(db, [{ slug: 'y', result: down, at: day(8) }]);
    expect((await healthFacts(db, 'y', day(8)))?.failingSince).toBe(day(1).toISOString());
    expect(await failingServers(db, day(8))).toEqual([{ slug: 'y', since: day(1).toISOString() }]);
    // One healthy answer ends the run.
    await recordHealth(db, [{ slug: 'y', result: ok(90), at: day(9) }]);
    expect((await healthFacts(db, 'y', day(9)))?.failingSince).toBeUndefined();
    expect((await lastHealth(db)).get('y')).toBe('healthy');
  });
});
