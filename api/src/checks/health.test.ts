import { beforeEach, describe, expect, it } from 'vitest';
import type { DB } from '../db/connection';
import { openTestDatabase } from '../../test/testDatabase';
import { seed } from '../seed';
import { listToolSummaries } from '../tools/repository';
import { CURRENT_MS, failingServers, healthFacts, lastHealth, recordHealth, type HealthResult } from './health';

describe('health facts', () => {
  let db: DB;
  beforeEach(async () => {
    db = await openTestDatabase();
    await server('x');
    await server('y');
  });

  const day = (n: number) => new Date(Date.UTC(2026, 10, 1 + n, 12));
  const serverDoc = (slug: string, remote: boolean) =>
    JSON.stringify({
      name: `io.example/${slug}`,
      version: '1.0.0',
      ...(remote ? { remotes: [{ type: 'streamable-http', url: `https://${slug}.example/mcp` }] } : {}),
    });
  /** A listed server's tool and record, with a remote (the health job checks it) or without. */
  async function server(slug: string, remote = true) {
    const at = day(0).toISOString();
    await db.insertInto('tools').values({ slug, name: slug, doc: '{}', created_at: at }).execute();
    await db
      .insertInto('mcp_servers')
      .values({
        name: `io.example/${slug}`,
        tool_slug: slug,
        doc: serverDoc(slug, remote),
        source: 'import',
        updated_at: at,
      })
      .execute();
  }
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
    expect((await lastHealth(db, day(5))).get('x')).toBe('healthy');
  });

  it('has no current health once its last check is older than the job makes fresh, whatever that said', async () => {
    await recordHealth(db, [{ slug: 'x', result: ok(100), at: day(0) }]);
    expect((await lastHealth(db, day(1))).get('x')).toBe('healthy');
    expect((await lastHealth(db, new Date(day(0).getTime() + CURRENT_MS))).get('x')).toBe('healthy');
    expect((await lastHealth(db, new Date(day(0).getTime() + CURRENT_MS + 1))).has('x')).toBe(false);
    // Not checked for 80 days: the server's card and the healthy filter show it as never checked.
    await recordHealth(db, [{ slug: 'y', result: ok(100), at: day(-80) }]);
    expect((await lastHealth(db, day(0))).has('y')).toBe(false);
    // The page still says when it was last checked, and what that found.
    expect((await healthFacts(db, 'y', day(0)))?.last).toMatchObject({ at: day(-80).toISOString(), status: 'healthy' });
  });

  it('has no current health for a server whose record has no remote (any more), nor for one not listed', async () => {
    await server('z', false);
    await recordHealth(db, [
      { slug: 'x', result: ok(100), at: day(0) },
      { slug: 'z', result: ok(100), at: day(0) },
      { slug: 'gone', result: ok(100), at: day(0) },
    ]);
    expect([...(await lastHealth(db, day(0))).keys()]).toEqual(['x']);
    await db
      .updateTable('mcp_servers')
      .set({ doc: serverDoc('x', false) })
      .where('tool_slug', '=', 'x')
      .execute();
    expect(await lastHealth(db, day(0))).toEqual(new Map());
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
    expect((await lastHealth(db, day(9))).get('y')).toBe('healthy');
  });
});

describe("the cards' health", () => {
  it('leaves out a healthy check of 80 days ago: the card shows no health, which the healthy filter reads', async () => {
    const db = await openTestDatabase();
    await seed(db);
    const linear = 'linear-mcp-server';
    await recordHealth(db, [
      { slug: linear, result: { status: 'healthy', ms: 90 }, at: new Date(Date.now() - 80 * 86_400_000) },
    ]);
    expect((await listToolSummaries(db)).find((t) => t.slug === linear)?.health).toBeUndefined();
    await recordHealth(db, [{ slug: linear, result: { status: 'healthy', ms: 90 } }]);
    expect((await listToolSummaries(db)).find((t) => t.slug === linear)?.health).toBe('healthy');
  });
});
