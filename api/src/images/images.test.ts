import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../db/connection';
import { openTestDatabase } from '../../test/testDatabase';
import { seed } from '../seed';
import { createLogger } from '../middleware/logger';
import { getTool } from '../tools/repository';
import sharp from 'sharp';
import { coverSources, postCoverPath, toolSocialImagePath } from '@aitools/contracts/images';
import { contrastRatio, loadLogoMap, logoTileSvg, tileBackground } from '../tools/logos';
import { createImageService } from './service';
import { drawingLoadedWebpEncoder, drawingNiceness, drawnInThread } from './drawing';
import { imagesRouter } from './router';
import { API_ROOT } from '../paths';
import { changedPost, newPost, type PostSave } from '../blog/editing';
import { saveChange } from '../content/changes';
import { createPostPreviews } from '../blog/preview';
import { postFieldsSchema } from '@aitools/contracts/posts';

const logos = loadLogoMap();

/** An editor's save of a post, as the console makes it (content/changes.ts). */
const saved = async (db: DB, post: Promise<PostSave | null>) => {
  const save = (await post)!;
  return saveChange(db, { ...save, audit: () => ({ actor: 'test', action: 'post.save', target: `post ${save.key}` }) });
};

describe('data/logos.json', () => {
  it('maps about fifty tools, each to an icon simple-icons has, in its brand colour', () => {
    expect(logos.size).toBeGreaterThanOrEqual(50);
    for (const entry of logos.values()) expect(() => logoTileSvg(entry)).not.toThrow();
  });

  it("gives the GitHub mark only to GitHub's own server, never to a server merely hosted there", () => {
    const github = [...logos].filter(([, e]) => e.icon === 'github').map(([slug]) => slug);
    expect(github).toEqual(['github-mcp-server']);
    expect(logos.has('github-reference-mcp-server')).toBe(false);
  });

  it('draws every mark at 3:1 or more against its tile, so it reads in both themes', () => {
    for (const entry of logos.values())
      expect(contrastRatio(entry.hex, tileBackground(entry.hex))).toBeGreaterThanOrEqual(3);
    expect(tileBackground('#000000')).toBe('#ffffff');
    expect(tileBackground('#6AFDEF')).toBe('#0f172a');
  });
});

// Drawing a picture takes ~150 ms, but the first one also loads fonts and the layout engine: allow for a busy machine.
describe('image routes', { timeout: 20_000 }, () => {
  const previews = createPostPreviews('images-test-secret');
  const DRAFT = 'a-draft-with-a-cover';
  const OTHER_DRAFT = 'another-draft';
  /** The Cookie header a browser sends after following the post's preview link. */
  const previewCookie = (slug: string) => {
    const link = new URL(previews.link(slug), 'http://site.test');
    const grant = previews.verify(slug, link.searchParams.get('exp')!, link.searchParams.get('sig')!)!;
    return previews.cookie(grant, false).split(';')[0]!;
  };
  let db: DB;
  let dir: string;
  let app: express.Express;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'images-test-'));
    db = await openTestDatabase();
    await seed(db);
    const images = createImageService({ db, cacheDir: dir, logos });
    app = express().use(imagesRouter({ images, logos, logger: createLogger('silent'), previews }));
    for (const slug of [DRAFT, OTHER_DRAFT])
      await saved(
        db,
        newPost(db, slug, postFieldsSchema.parse({ title: `Draft ${slug}`, category: 'Guides' }), 'test'),
      );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('seeds the logo address into mapped tools only', async () => {
    expect((await getTool(db, 'claude'))?.logo).toMatch(/^\/logos\/claude\.svg\?v=[0-9a-f]{8}$/);
    expect((await getTool(db, 'chatgpt'))?.logo).toBeUndefined();
  });

  it('serves a mapped logo as SVG cached for a year, and 404 for others', async () => {
    const res = await request(app).get((await getTool(db, 'claude'))!.logo!);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/image\/svg\+xml/);
    expect(res.headers['cache-control']).toContain('immutable');
    // Public pictures show on other origins too (the console's live preview).
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(String(res.body)).toContain('#D97757');
    expect((await request(app).get('/logos/chatgpt.svg')).status).toBe(404);
  });

  it('draws a 1200x630 PNG social image for a tool once, then reads it from disk', async () => {
    const tool = (await getTool(db, 'cursor'))!;
    const res = await request(app).get(toolSocialImagePath(tool));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toContain('immutable');
    const png = res.body as Buffer;
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
    expect(readdirSync(join(dir, 'tool-social'))).toHaveLength(1);
    // Drawn in the drawing thread, not on the event loop that answers requests.
    expect(drawnInThread()).toBe(1);
    const again = await request(app).get(toolSocialImagePath(tool));
    expect(Buffer.compare(again.body as Buffer, png)).toBe(0);
  });

  it("draws a tool's social image with its own logo after an editor changes its slug", async () => {
    const before = (await getTool(db, 'perplexity'))!;
    expect(before.logo).toMatch(/^\/logos\/perplexity\.svg/);
    const drawn = (await request(app).get(toolSocialImagePath(before))).body as Buffer;
    const { id: _id, ...doc } = { ...before, slug: 'perplexity-renamed' };
    await db
      .updateTable('tools')
      .set({ slug: 'perplexity-renamed', doc: JSON.stringify(doc) })
      .where('slug', '=', 'perplexity')
      .execute();
    const after = (await getTool(db, 'perplexity-renamed'))!;
    const res = await request(app).get(toolSocialImagePath(after));
    expect(res.status).toBe(200);
    // The same title, category and logo: the same picture.
    expect(Buffer.compare(res.body as Buffer, drawn)).toBe(0);
  });

  it('draws a 16:9 cover for a post; an old ?v= gets a short cache; unknown slugs are 404', async () => {
    const post = { slug: 'ai-market-landscape-2026', title: 'x', category: 'y' };
    const stale = await request(app).get(postCoverPath(post));
    expect(stale.status).toBe(200);
    expect([(stale.body as Buffer).readUInt32BE(16), (stale.body as Buffer).readUInt32BE(20)]).toEqual([1200, 675]);
    expect(stale.headers['cache-control']).toBe('public, max-age=3600');
    expect(stale.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect((await request(app).get('/og/blog/no-such-post.png')).status).toBe(404);
    expect((await request(app).get('/og/tool/..%2Fetc.png')).status).toBe(404);
  });

  it('draws narrower copies of a cover, the same picture in fewer bytes, for the widths its srcset names', async () => {
    const tool = (await getTool(db, 'cursor'))!;
    const cover = postCoverPath({ slug: 'ai-market-landscape-2026', title: 'x', category: 'y' });
    const sources = coverSources(cover)!;
    expect(sources.png).toBe(`${cover}&w=400 400w, ${cover}&w=800 800w, ${cover} 1200w`);
    const full = (await request(app).get(cover)).body as Buffer;
    for (const [width, height] of [
      [400, 225],
      [800, 450],
    ]) {
      const res = await request(app).get(`${cover}&w=${width}`);
      expect(res.status).toBe(200);
      const png = res.body as Buffer;
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([width, height]);
      expect(png.length).toBeLessThan(full.length);
    }
    // Only the listed widths, and only covers.
    expect((await request(app).get(`${cover}&w=123`)).status).toBe(404);
    expect((await request(app).get(`${toolSocialImagePath(tool)}&w=400`)).status).toBe(404);
    expect(coverSources(toolSocialImagePath(tool))).toBeUndefined();
    expect(coverSources('https://example.com/covers/a.png?v=1')).toBeUndefined();
  });

  it("draws each copy of a cover as lossless WebP too: the PNG's pixels in fewer bytes, at its srcset's addresses", async () => {
    const cover = postCoverPath({ slug: 'ai-market-landscape-2026', title: 'x', category: 'y' });
    const webp = cover.replace('.png?', '.webp?');
    expect(coverSources(cover)!.webp).toBe(`${webp}&w=400 400w, ${webp}&w=800 800w, ${webp} 1200w`);
    for (const [suffix, width, height] of [
      ['&w=400', 400, 225],
      ['&w=800', 800, 450],
      ['', 1200, 675],
    ] as const) {
      const res = await request(app).get(webp + suffix);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
      const png = (await request(app).get(cover + suffix)).body as Buffer;
      const bytes = res.body as Buffer;
      expect(bytes.length).toBeLessThan(png.length * 0.9);
      // Every pixel the same as the PNG's (webp.test.ts compares them with the drawing's own).
      const [fromWebp, fromPng] = await Promise.all(
        [bytes, png].map((file) => sharp(file).ensureAlpha().raw().toBuffer({ resolveWithObject: true })),
      );
      expect([fromWebp!.info.width, fromWebp!.info.height]).toEqual([width, height]);
      expect(fromWebp!.data.equals(fromPng!.data)).toBe(true);
    }
    // Social previews stay PNG only, for the sites that show them.
    const tool = (await getTool(db, 'cursor'))!;
    expect((await request(app).get(toolSocialImagePath(tool).replace('.png?', '.webp?'))).status).toBe(404);
    expect((await request(app).get(cover.replace('.png?', '.gif?'))).status).toBe(404);
  });

  it("draws an unpublished post's cover only for a request holding that post's preview, kept by no one", async () => {
    const cover = postCoverPath({ slug: DRAFT, title: `Draft ${DRAFT}`, category: 'Guides' });
    for (const path of [cover, `${cover}&w=400`]) {
      // Without a grant, or with another post's, a draft's cover does not exist.
      expect((await request(app).get(path)).status).toBe(404);
      expect((await request(app).get(path).set('Cookie', previewCookie(OTHER_DRAFT))).status).toBe(404);
      const res = await request(app).get(path).set('Cookie', previewCookie(DRAFT));
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['cache-control']).toBe('private, no-store');
      const webp = await request(app).get(path.replace('.png?', '.webp?')).set('Cookie', previewCookie(DRAFT));
      expect([webp.status, webp.headers['content-type'], webp.headers['cache-control']]).toEqual([
        200,
        'image/webp',
        'private, no-store',
      ]);
      expect(res.headers['cross-origin-resource-policy']).toBeUndefined();
      expect((res.body as Buffer).readUInt32BE(16)).toBe(path === cover ? 1200 : 400);
    }
    // A forged or expired grant is none.
    const forged = previewCookie(DRAFT).replace(/.(?=$)/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await request(app).get(cover).set('Cookie', forged)).status).toBe(404);
    // Not written where the public pictures are read from.
    expect(readdirSync(join(dir, 'post-cover')).some((f) => f.startsWith(DRAFT))).toBe(false);
  });
});

describe('the drawing threads', () => {
  it("draw a visitor's picture at the process's priority, and the warm-up's at the lowest", async () => {
    // At the lowest priority on a machine whose cores were busy, a cover took 2-6 s instead of 30-90 ms: a visitor
    // waiting for one must not yield to every other process.
    expect(await drawingNiceness('visitor')).toBe(getPriority());
    expect(await drawingNiceness('background')).toBe(19);
    const db = await openTestDatabase();
    await saved(
      db,
      newPost(
        db,
        'warm-one',
        postFieldsSchema.parse({
          title: 'Warm one',
          category: 'Guides',
          excerpt: 'One post.',
          tags: ['MCP'],
          author: 'The editors',
          content: 'Text.',
        }),
        'test',
      ),
    );
    await saved(db, changedPost(db, 'warm-one', { base: 1, action: 'publish' }, 'test'));
    const dir = mkdtempSync(join(tmpdir(), 'images-warm-'));
    try {
      const images = createImageService({ db, cacheDir: dir, logos });
      const [visitor, background] = [drawnInThread('visitor'), drawnInThread('background')];
      // The post's cover and its narrower copies as PNG, and its social picture, in the warm-up's thread; the three
      // WebP copies in a visitor's, whose priority libvips' threads then keep (webp.ts).
      expect(await images.warm()).toBe(7);
      expect(drawnInThread('background') - background).toBe(4);
      expect(drawnInThread('visitor') - visitor).toBe(3);
      for (const format of ['png', 'webp'] as const)
        expect((await images.image('post-cover', 'warm-one', { width: 400, format }))?.bytes.length).toBeGreaterThan(0);
      expect(drawnInThread('visitor') - visitor).toBe(3);
      expect(await drawingLoadedWebpEncoder('background')).toBe(false);
      expect(await drawingLoadedWebpEncoder('visitor')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("gives back each picture's pixels once it is drawn, so a warm-up of many pictures does not grow the process", () => {
    // In a process of its own, so its memory is the drawing's alone: 40 social pictures held 120 MB and more before
    // the thread collected after each picture. Half are encoded as WebP (libvips keeps no cache of them).
    const script = `
      import { readFileSync } from 'node:fs';
      import { drawCard } from './src/images/drawing.ts';
      const rss = () => Number(/VmRSS:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
      const card = (i) => ({ title: 'Tool ' + i, category: 'Coding', label: 'AI Tool', size: 'social' });
      const draw = (i) => drawCard(card(i), { format: i % 2 ? 'webp' : 'png' });
      for (let i = 0; i < 6; i++) await draw(i);
      const before = rss();
      for (let i = 6; i < 46; i++) await draw(i);
      console.log(JSON.stringify({ grew: rss() - before }));
      process.exit(0);`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: API_ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const { grew } = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { grew: number };
    expect(grew).toBeLessThan(60);
  }, 130_000);
});
