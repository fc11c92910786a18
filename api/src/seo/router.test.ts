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
    expect(res.text).toContain('# For language models and agents: https://aitools.test/llms.txt');
  });

  it('/llms.txt follows the llms.txt shape and is generated from the data: pages, every MCP server, posts', async () => {
    const res = await request(app).get('/llms.txt');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const lines = res.text.split('\n');
    // A title, then a one-line summary as a quote, then sections of "- [title](url): notes" links.
    expect(lines[0]).toBe('# AI Tools Directory');
    expect(lines[2]).toMatch(/^> A directory of \d+ AI tools and MCP servers/);
    const sections = lines.filter((l) => l.startsWith('## '));
    expect(sections).toEqual([
      '## Pages',
      '## For agents',
      '## MCP servers',
      '## Popular AI tools',
      '## Newest blog posts',
      '## Optional',
    ]);
    for (const l of lines.filter((l) => l.startsWith('- ')))
      expect(l).toMatch(/^- \[[^\]]+\]\(https:\/\/aitools\.test[^)\s]*\)(: .+)?$/);
    expect(res.text).toContain('- [MCP server](https://aitools.test/mcp)');
    const tools = (await request(app).get('/api/tools')).body.data as { slug: string; category?: string }[];
    const servers = tools.filter((t) => t.category === 'MCP Servers');
    for (const t of servers) expect(res.text).toContain(`(https://aitools.test/tool/${t.slug})`);
    const posts = (await request(app).get('/api/blog/public/posts')).body.data as { slug: string }[];
    expect(res.text).toContain(`(https://aitools.test/blog/${posts[0]!.slug})`);
    expect(res.text).not.toContain('real-world-ai-examples-everyday-life');
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
