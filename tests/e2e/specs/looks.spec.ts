/**
 * "A directory that looks real": brand logos, covers, social images, clean pages, the type scale, the theme rule,
 * the top bar and the phone layout, on the production build. Also takes the README's screenshots (docs/screenshots/).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { globSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, waitForRoute } from '../browser';
import { REPO_ROOT } from '../harness';

const BASE = process.env.BASE_URL!;
const SHOTS = join(REPO_ROOT, 'docs', 'screenshots');
const LOGOS = new Set(
  Object.keys(JSON.parse(readFileSync(join(REPO_ROOT, 'api', 'data', 'logos.json'), 'utf8')) as object).filter(
    (k) => !k.startsWith('$'),
  ),
);
const PHONE = { width: 390, height: 844 };
/** The type scale's sizes in px, read from the platform's base.css (`--font-size-*` in rem, 16 px each). */
const SCALE_PX = [
  ...readFileSync(join(REPO_ROOT, 'shell/platform/src/css/base.css'), 'utf8').matchAll(
    /--font-size-[\w-]+:\s*([\d.]+)rem;/g,
  ),
].map((m) => Number(m[1]) * 16);
const WEIGHTS = ['400', '600', '700'];
let browser: Browser;
let postSlugs: string[];
let toolSlugs: string[];

before(async () => {
  browser = await launchBrowser();
  postSlugs = ((await (await fetch(`${BASE}/api/blog/public/posts`)).json()) as { data: { slug: string }[] }).data.map(
    (p) => p.slug,
  );
  toolSlugs = ((await (await fetch(`${BASE}/api/tools`)).json()) as { data: { slug: string }[] }).data.map(
    (t) => t.slug,
  );
});
after(async () => {
  await browser.close();
});

/** Makes every lazy image load now, then waits until every image has settled. */
async function loadAllImages(page: Page) {
  // Lazy images load near the viewport; made eager they all load now. Made so at every check, not once: a part that
  // React renders again in the browser (instead of hydrating it) brings new lazy images. (Scrolling through the page
  // with timers hung once in CI: a renderer that stopped running them left page.evaluate waiting for ever.)
  const settled = () => {
    document.querySelectorAll<HTMLImageElement>('img[loading="lazy"]').forEach((img) => (img.loading = 'eager'));
    return Array.from(document.images).every((i) => i.complete);
  };
  try {
    await page.waitForFunction(settled, undefined, { timeout: 20_000, polling: 100 });
  } catch (err) {
    // Which pictures were still loading, so a failure says where the time went.
    const pending = await page.$$eval('img', (imgs) =>
      imgs.filter((i) => !i.complete).map((i) => `${i.currentSrc || i.src} (${i.loading})`),
    );
    throw new Error(`${page.url()}: images still loading after 20 s: ${pending.join(', ')}`, { cause: err });
  }
}

/** The path of a page's og:image (the server writes the https public origin; the test server is plain http). */
function ogImagePath(html: string): string | null {
  const m = /<meta data-head property="og:image" content="https?:\/\/[^/"]+([^"]+)">/.exec(html);
  return m ? m[1].replace(/&amp;/g, '&') : null;
}

async function assertImage(path: string, width: number, height: number) {
  const res = await fetch(`${BASE}${path}`);
  assert.equal(res.status, 200, path);
  assert.equal(res.headers.get('content-type'), 'image/png', path);
  assert.match(res.headers.get('cache-control') ?? '', /max-age=31536000/, path);
  const png = Buffer.from(await res.arrayBuffer());
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [width, height], path);
}

describe('looks', () => {
  it('key pages log no console error and request nothing that fails', async () => {
    const { page, errors } = await openPage(browser);
    const failed: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    page.on('requestfailed', (r) => {
      if (r.failure()?.errorText !== 'net::ERR_ABORTED') failed.push(`${r.failure()?.errorText} ${r.url()}`);
    });
    // chatgpt and cursor used to point at /screenshots/*.png files that do not exist.
    for (const path of [
      '/',
      '/tool/claude',
      '/tool/chatgpt',
      '/tool/cursor',
      '/blog',
      `/blog/${postSlugs[0]}`,
      '/submit',
      '/contact',
      '/advertise',
      '/privacy',
    ]) {
      await page.goto(`${BASE}${path}`);
      await waitForRoute(page);
      await loadAllImages(page);
    }
    assert.deepEqual(errors, []);
    assert.deepEqual(failed, []);
    await page.context().close();
  });

  it("draws every form control in the page's type, not the browser's own", async () => {
    const { page } = await openPage(browser);
    for (const path of ['/', '/submit', '/blog']) {
      await page.goto(`${BASE}${path}`);
      await waitForRoute(page);
      // A control in another family costs the renderer's first layout a font lookup (docs/performance.md, "Phones").
      const odd = await page.evaluate(() => {
        const body = getComputedStyle(document.body).fontFamily;
        return Array.from(document.querySelectorAll('button, input, select, textarea'))
          .filter((el) => getComputedStyle(el).fontFamily !== body)
          .map((el) => el.outerHTML.slice(0, 80));
      });
      assert.deepEqual(odd, [], path);
    }
    await page.context().close();
  });

  it('every style sheet sizes text on the type scale, in weights 400, 600 and 700', () => {
    // Each size and weight a page draws costs the renderer's first layout a font lookup (docs/performance.md,
    // "One type scale"); the console shares the scale.
    const token = String.raw`var\(--font-size-[\w-]+\)`;
    const size = new RegExp(String.raw`^(inherit|${token}|clamp\(${token}, [\d.]+vw, ${token}\))$`);
    const files = globSync(['shell/**/src/**/*.css', 'mfe-*/src/**/*.css', 'console/src/**/*.css'], {
      cwd: REPO_ROOT,
    });
    assert.ok(files.length >= 10, `${files.length} style sheets`);
    const odd: string[] = [];
    for (const file of files) {
      const css = readFileSync(join(REPO_ROOT, file), 'utf8');
      for (const [, value] of css.matchAll(/font-size:\s*([^;]+);/g))
        if (!size.test(value)) odd.push(`${file}: ${value}`);
      for (const [, value] of css.matchAll(/font-weight:\s*([^;]+);/g))
        if (!WEIGHTS.includes(value)) odd.push(`${file}: weight ${value}`);
    }
    assert.deepEqual(odd, []);
  });

  it("draws the key pages' text only in the type scale's sizes and weights, on a phone and a desktop", async () => {
    assert.deepEqual(SCALE_PX, [12, 14, 16, 18, 20, 24, 32, 40]);
    for (const viewport of [PHONE, { width: 1280, height: 900 }]) {
      const { page } = await openPage(browser, { viewport });
      for (const path of ['/', '/tool/cursor', '/blog', `/blog/${postSlugs[0]}`, '/submit', '/privacy']) {
        await page.goto(`${BASE}${path}`);
        await waitForRoute(page);
        const drawn = await page.evaluate(() => {
          const seen = new Map<string, string>();
          for (const el of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
            const text = Array.from<ChildNode>(el.childNodes).some(
              (n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim(),
            );
            if (!text || !el.offsetParent) continue;
            const style = getComputedStyle(el);
            seen.set(`${style.fontSize} ${style.fontWeight}`, `${el.tagName.toLowerCase()}.${el.className}`);
          }
          return [...seen];
        });
        const odd = drawn.filter(([key]) => {
          const [px, weight] = key.split(' ');
          return !SCALE_PX.includes(parseFloat(px)) || !WEIGHTS.includes(weight);
        });
        assert.deepEqual(odd, [], `${path} at ${viewport.width} px`);
      }
      await page.context().close();
    }
  });

  it('every card with a known brand shows its logo; the others keep the letter tile', async () => {
    const { page } = await openPage(browser);
    let branded = 0;
    for (const path of ['/', '/?type=mcp-servers']) {
      await page.goto(`${BASE}${path}`);
      await waitForRoute(page);
      await page.getByLabel('Per page').selectOption('96');
      // Both lists hold more than the default 24 tools: wait for the longer page before counting.
      await page.waitForFunction(() => document.querySelectorAll('.dir-card').length > 24, undefined, {
        timeout: 20_000,
      });
      await loadAllImages(page);
      const cards = await page.$$eval('.dir-card', (els) =>
        els.map((card) => {
          const img = card.querySelector<HTMLImageElement>('img.dir-logo');
          return {
            slug: card.querySelector('.dir-card__name a')!.getAttribute('href')!.replace('/tool/', ''),
            logo: img ? { src: img.getAttribute('src')!, shown: img.currentSrc, width: img.naturalWidth } : null,
            letter: card.querySelector('.dir-logo--letter') !== null,
          };
        }),
      );
      assert.ok(cards.length > 20, path);
      for (const c of cards) {
        if (LOGOS.has(c.slug)) {
          branded++;
          assert.match(c.logo?.src ?? '', new RegExp(`^/logos/${c.slug}\\.svg\\?v=`), c.slug);
          // Shown from its WebP copy in the width the screen needs: no SVG document per logo on the main thread.
          assert.match(c.logo?.shown ?? '', new RegExp(`/logos/${c.slug}\\.webp\\?v=\\w+&w=48$`), c.slug);
          assert.ok((c.logo?.width ?? 0) > 0, `${c.slug}: the logo loaded`);
        } else {
          assert.ok(c.letter, `${c.slug}: letter tile`);
        }
      }
    }
    assert.ok(branded >= 40, `${branded} branded cards seen`);
    await page.context().close();
  });

  it('every post has a cover, on the list and on its page', async () => {
    const { page } = await openPage(browser);
    const covers = new Set<string>();
    for (const path of ['/blog', '/blog?page=2']) {
      await page.goto(`${BASE}${path}`);
      await waitForRoute(page);
      await loadAllImages(page);
      const cards = await page.$$eval('.blog-card', (els) =>
        els.map((c) => ({
          slug: c.querySelector('a')!.getAttribute('href')!,
          img: c.querySelector<HTMLImageElement>('img.blog-card__image')?.naturalWidth ?? 0,
        })),
      );
      for (const c of cards) {
        assert.ok(c.img > 0, `${c.slug}: cover loaded`);
        covers.add(c.slug);
      }
    }
    // The featured post has no card image; every other post has one.
    assert.ok(covers.size >= postSlugs.length - 1, `${covers.size} covers for ${postSlugs.length} posts`);
    for (const slug of postSlugs.slice(0, 3)) {
      await page.goto(`${BASE}/blog/${slug}`);
      await waitForRoute(page);
      await page.waitForFunction(
        () => (document.querySelector<HTMLImageElement>('.blog-post__image')?.naturalWidth ?? 0) > 0,
      );
    }
    await page.context().close();
  });

  it('every tool and post page names an og:image (large Twitter card) that answers 200 with a 1200x630 PNG', async () => {
    const pages = [...toolSlugs.map((s) => `/tool/${s}`), ...postSlugs.map((s) => `/blog/${s}`)];
    for (const path of pages) {
      const html = await (await fetch(`${BASE}${path}`)).text();
      const image = ogImagePath(html);
      assert.ok(image, `${path}: og:image`);
      assert.match(html, /<meta data-head name="twitter:card" content="summary_large_image">/, path);
      assert.match(html, /<meta data-head name="twitter:image" content="https?:\/\/[^"]+">/, path);
      await assertImage(image, 1200, 630);
    }
  });

  it('a dark-preferring visitor keeps the dark theme in the daytime, before and after the 60 s recheck', async () => {
    for (const [scheme, expected] of [
      ['dark', 'dark'],
      ['light', 'light'],
    ] as const) {
      const { page, errors } = await openPage(browser, { colorScheme: scheme });
      await page.clock.install({ time: new Date(2026, 10, 23, 12, 0, 0) });
      await page.goto(`${BASE}/`);
      const firstPaint = await page.evaluate(() => document.documentElement.dataset.theme);
      await waitForRoute(page);
      const hydrated = await page.evaluate(() => document.documentElement.dataset.theme);
      await page.clock.runFor(61_000);
      const later = await page.evaluate(() => document.documentElement.dataset.theme);
      assert.deepEqual([firstPaint, hydrated, later], [expected, expected, expected], scheme);
      assert.deepEqual(errors, []);
      await page.context().close();
    }
  });

  it('on a 390x844 phone: the first tool card is in the first screen, and the top bar (one line) reaches each section', async () => {
    const { page, errors } = await openPage(browser, { viewport: PHONE });
    await page.goto(`${BASE}/`);
    await waitForRoute(page);
    const name = await page.locator('.dir-card__name').first().boundingBox();
    assert.ok(
      name && name.y >= 0 && name.y + name.height <= PHONE.height,
      `first card name at ${JSON.stringify(name)}`,
    );
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth),
      'no sideways scrolling of the page',
    );
    const bar = await page.locator('.top-bar').boundingBox();
    assert.ok(bar && bar.height <= 64, `top bar height ${bar?.height}`);
    // The menu opens from the keyboard.
    await page.locator('.top-menu summary').focus();
    await page.keyboard.press('Enter');
    const menu = page.locator('.top-menu__panel');
    assert.ok(await menu.isVisible());
    const links = await menu
      .getByRole('link')
      .evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('aria-current')]));
    assert.deepEqual(links, [
      ['Directory', '/', 'page'],
      ['MCP Servers', '/?type=mcp-servers', null],
      ['Blog', '/blog', null],
      ['Submit a tool', '/submit', null],
    ]);
    await menu.getByRole('link', { name: 'Blog' }).click();
    // An in-app navigation commits once the route's data has loaded.
    await page.waitForURL(`${BASE}/blog`);
    await waitForRoute(page);
    assert.equal(new URL(page.url()).pathname, '/blog');
    assert.equal(await menu.isVisible(), false, 'the menu closed on navigation');
    assert.equal(await page.locator('.top-menu a[aria-current="page"]').textContent(), 'Blog');
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('takes the README screenshots: home and a tool page, light and dark', async () => {
    mkdirSync(SHOTS, { recursive: true });
    for (const theme of ['light', 'dark'] as const) {
      for (const [name, path] of [
        ['home', '/'],
        ['tool', '/tool/claude'],
      ] as const) {
        const { page } = await openPage(browser, { theme, viewport: { width: 1280, height: 800 } });
        await page.goto(`${BASE}${path}`);
        await waitForRoute(page);
        await page.waitForFunction(() =>
          Array.from(document.images)
            .filter((i) => i.getBoundingClientRect().top < innerHeight)
            .every((i) => i.complete && i.naturalWidth > 0),
        );
        assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), theme);
        await page.screenshot({ path: join(SHOTS, `${name}-${theme}.png`) });
        await page.context().close();
      }
    }
    // In light, whatever the hour (the theme follows the clock otherwise), so the picture changes only with the page.
    const { page } = await openPage(browser, { theme: 'light', viewport: PHONE });
    await page.goto(`${BASE}/`);
    await waitForRoute(page);
    await page.screenshot({ path: join(SHOTS, 'home-phone.png') });
    await page.context().close();
  });
});
