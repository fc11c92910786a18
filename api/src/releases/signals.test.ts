import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type RollbackRule } from '../config';
import type { DB } from '../db/connection';
import { openTestDatabase } from '../../test/testDatabase';
import { createRateLimits } from '../middleware/rateLimit';
import { judge } from './autoRollback';
import type { ReleaseMeta } from './manifest';
import { createSignals, signalsRouter, type Signals } from './signals';
import { createSignalTokens } from './signalTokens';

let db: DB;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(() => db.destroy());

/** The site's default rule (config.ts), with fewer views needed. */
const rule: RollbackRule = { ...loadConfig({}).rollback, minViews: 100 };

/** POST /api/signals alone, behind a proxy on this machine, with a per-address limit and releases c1 and s1. */
function site(signals: Signals, perMinute: number) {
  const tokens = createSignalTokens('test-secret');
  const lookups: string[] = [];
  const files = {
    meta: async (_remote: string, id: string) => (
      lookups.push(id),
      ['c1', 's1'].includes(id) ? ({} as ReleaseMeta) : null
    ),
  };
  const limit = createRateLimits({ formsPerMinute: 5, eventsPerMinute: 5, signalsPerMinute: perMinute }).signals;
  const app = express().set('trust proxy', 'loopback');
  app.use(signalsRouter({ signals, tokens, files, limit }));
  const report = (from: string, release: string, token?: string) =>
    request(app)
      .post('/api/signals')
      .set('Content-Type', 'text/plain')
      .set('X-Forwarded-For', from)
      .send(JSON.stringify({ remote: 'blog', release, kind: 'unhandled', route: '/blog', hash: '0a1b2c3d', token }));
  return { report, lookups, page: (release: string) => tokens.issue({ blog: release }).blog! };
}

describe('beacons naming made-up releases', () => {
  it('are limited per address before the release is looked up', async () => {
    const signals = createSignals(db, { flushMs: 60_000, retentionMs: 86_400_000, maxKeys: 100 });
    const { report, lookups } = site(signals, 80);
    const answers = [];
    for (let i = 0; i < 81; i++) answers.push((await report('192.0.2.50', `made-up-${i}`)).status);
    expect(answers.slice(0, 80)).toEqual(Array(80).fill(422));
    expect(answers[80]).toBe(429);
    expect(lookups).toHaveLength(80); // the limited one was not looked up
    await signals.flush();
    expect(await db.selectFrom('release_signals').select('release_id').execute()).toEqual([]); // nor counted
    await signals.close();
  });
});

describe('errors from one address', () => {
  it('count at most a few per release: one address cannot roll back a healthy canary, widespread errors still do', async () => {
    const signals = createSignals(db, { flushMs: 60_000, retentionMs: 86_400_000, maxKeys: 1000 });
    const { report, page } = site(signals, 60);
    const since = Date.now() - 60_000;
    const judged = async () =>
      judge(await signals.counts('blog', 'c1', since), await signals.counts('blog', 's1', since), rule);
    // The same baseline on both sides: 10 errors in 110 views, the canary's from 10 visitors in 5 networks.
    signals.count('blog', 'c1', 'view', 110);
    signals.count('blog', 's1', 'view', 110);
    signals.count('blog', 's1', 'unhandled', 10);
    for (let i = 0; i < 10; i++)
      expect((await report(`198.51.${100 + (i % 5)}.${i + 1}`, 'c1', page('c1'))).status).toBe(204);
    expect((await judged()).rollBack).toBe(false);
    // One address: 20 pages of the canary, three reports each.
    signals.count('blog', 'c1', 'view', 4);
    const answers = [];
    for (let p = 0; p < 20; p++) {
      const token = page('c1');
      for (let r = 0; r < 3; r++) answers.push((await report('192.0.2.10', 'c1', token)).status);
    }
    expect(answers.filter((s) => s === 204)).toHaveLength(3);
    const verdict = await judged();
    expect(verdict).toMatchObject({ rollBack: false });
    expect(verdict.reason).toMatch(
      /^error rate 11\.4% \(13 errors in 114 views\) against 9\.1% .*: not clearly worse$/,
    );
    // Ten more visitors in five other networks, three errors each: rolled back.
    for (let i = 0; i < 10; i++) {
      const token = page('c1');
      for (let r = 0; r < 3; r++) expect((await report(`203.0.${i % 5}.${i + 1}`, 'c1', token)).status).toBe(204);
    }
    expect(await judged()).toMatchObject({
      rollBack: true,
      reason: expect.stringMatching(/^error rate 37\.7% \(43 errors/),
    });
    await signals.close();
  });
});
