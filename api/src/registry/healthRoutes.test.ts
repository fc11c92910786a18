import { beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../app';
import { loadConfig } from '../config';
import type { DB } from '../db/connection';
import { openTestDatabase } from '../../test/testDatabase';
import { createLogger } from '../middleware/logger';
import { seed } from '../seed';
import { CHECKS_META_KEY } from '@aitools/contracts/checks';
import { recordHealth } from '../checks/health';
import { listToolSummaries } from '../tools/repository';
import { toolAnswer } from '../mcp/answers';

let db: DB;
let app: Express;
const LINEAR = 'linear-mcp-server';
const FIGMA = 'figma-mcp-server';

beforeAll(async () => {
  db = await openTestDatabase();
  await seed(db);
  app = await createApp({
    config: loadConfig({ ...process.env, NODE_ENV: 'test', SITE_ORIGIN: 'https://dir.example' }),
    db,
    logger: createLogger('silent'),
    pages: false,
  });
  await recordHealth(db, [{ slug: LINEAR, result: { status: 'healthy', ms: 140 } }]);
  await recordHealth(db, [{ slug: FIGMA, result: { status: 'healthy', ms: 90 } }]);
  await recordHealth(db, [{ slug: FIGMA, result: { status: 'unreachable', detail: 'fetch failed (ECONNREFUSED)' } }]);
});

const names = (b: { servers: { _meta: Record<string, { slug?: string }> }[] }) =>
  b.servers.map((s) => s._meta['io.aitoolsdirectory/listing']!.slug);

describe('health in the API', () => {
  it('filters /v0.1 to servers whose last check was healthy, and refuses another value', async () => {
    const all = await request(app).get('/v0.1/servers?limit=100').expect(200);
    expect(names(all.body)).toEqual(expect.arrayContaining([LINEAR, FIGMA]));
    const healthy = await request(app).get('/v0.1/servers?limit=100&health=healthy').expect(200);
    expect(names(healthy.body)).toEqual([LINEAR]);
    expect(healthy.body.servers[0]._meta[CHECKS_META_KEY].health).toMatchObject({
      last: { status: 'healthy', ms: 140 },
      checks30d: 1,
      uptime30d: 1,
      medianMs: 140,
    });
    // A healthy check too old to be current is no one's health now, as on the cards.
    const NOTION = 'notion-mcp-server';
    await recordHealth(db, [
      { slug: NOTION, result: { status: 'healthy', ms: 80 }, at: new Date(Date.now() - 80 * 86_400_000) },
    ]);
    expect(names((await request(app).get('/v0.1/servers?limit=100&health=healthy').expect(200)).body)).toEqual([
      LINEAR,
    ]);
    expect((await request(app).get('/v0.1/servers?health=ok').expect(400)).body.error).toBe(
      'health must be "healthy" when given',
    );
  });

  it("gives the page's checks the health, the cards the last status, and get_tool the same checks", async () => {
    const page = (await request(app).get(`/api/tools/${FIGMA}`).expect(200)).body;
    expect(page.mcpChecks.health).toMatchObject({
      last: { status: 'unreachable', detail: 'fetch failed (ECONNREFUSED)' },
      checks30d: 2,
      uptime30d: 0.5,
    });
    const cards = await listToolSummaries(db);
    expect(cards.find((t) => t.slug === FIGMA)?.health).toBe('unreachable');
    expect(cards.find((t) => t.slug === LINEAR)?.health).toBe('healthy');
    const answer = await toolAnswer(db, 'https://dir.example', FIGMA);
    expect(answer.mcpServer?.checks).toEqual({
      open: page.mcpChecks.open,
      findings: page.mcpChecks.findings,
      license: page.mcpChecks.license,
      health: page.mcpChecks.health,
    });
  });
});
