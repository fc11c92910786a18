import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Express } from 'express';
import { createApp } from '../app';
import { loadConfig } from '../config';
import { openTestDatabase } from '../../test/testDatabase';
import { seed } from '../seed';
import { createLogger } from '../middleware/logger';

let app: Express;

beforeAll(async () => {
  const db = await openTestDatabase();
  await seed(db);
  app = await createApp({
    config: loadConfig({ NODE_ENV: 'test', SITE_ORIGIN: 'http://aitools.test/' }),
    db,
    logger: createLogger('silent'),
    pages: false,
  });
});

describe('crawler files', () => {
  it('robots.txt allows the site, keeps crawlers out of /admin and the API, and names the sitemap', async () => {
    const res = await request(app).get('/robots.txt');
    expect(res.status).toBe(200);
    expect(res.text).toContain('Disallow: /admin');
    expect(res.text).toContain('Sitemap: https://aitools.test/sitemap.xml');
  });

  it('the sitemap lists the static pages, every tool and every published post, never a draft', async () => {
    const res = await request(app).get('/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/xml');
    expect(res.text).toContain('<loc>https://aitools.test</loc>');
    expect(res.text).toContain('<loc>https://aitools.test/privacy</loc>');
    expect(res.text).toMatch(/<loc>https:\/\/aitools\.test\/tool\/cursor<\/loc><lastmod>\d{4}-\d{2}-\d{2}<\/lastmod>/);
    expect(res.text).toContain(
      '<loc>https://aitools.test/blog/how-ai-all-started-history-artificial-intelligence</loc>',
    );
    expect(res.text).not.toContain('real-world-ai-examples-everyday-life');
    expect((res.text.match(/<url>/g) ?? []).length).toBeGreaterThan(150 + 15);
  });
});
