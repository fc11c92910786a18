import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import satori from 'satori';
import { Resvg } from '@resvg/resvg-js';
import { indexedPng } from './indexedPng';
import { losslessWebp } from './webp';
import { SITE_NAME } from '@aitools/platform/site';
import { COVER_IMAGE_SIZE, SOCIAL_IMAGE_SIZE, type ImageFormat } from '@aitools/contracts/images';

/** What a generated picture shows: the title, a category chip, a kind label, optionally a brand-logo tile. */
export interface Card {
  title: string;
  category?: string | null;
  /** "AI Tool", "MCP Server" or "Blog". */
  label: string;
  /** A logo tile SVG (see logos.ts) shown beside the title. */
  logoSvg?: string;
  size: 'social' | 'cover';
}

const require = createRequire(import.meta.url);
// satori reads .woff (not .woff2); two weights are enough for the look.
let fonts: { name: string; data: Buffer; weight: 400 | 800; style: 'normal' }[] | null = null;
function loadFonts() {
  fonts ??= ([400, 800] as const).map((weight) => ({
    name: 'Inter',
    data: readFileSync(require.resolve(`@fontsource/inter/files/inter-latin-${weight}-normal.woff`)),
    weight,
    style: 'normal' as const,
  }));
  return fonts;
}

type Node = { type: string; props: Record<string, unknown> & { children?: unknown } };
const h = (
  type: string,
  style: Record<string, unknown>,
  children?: unknown,
  extra: Record<string, unknown> = {},
): Node => ({
  type,
  props: { style, children: Array.isArray(children) ? children.filter(Boolean) : children, ...extra },
});

/** Titles past this many characters would overflow three lines at the large size. */
function titleSize(title: string): number {
  if (title.length <= 28) return 84;
  if (title.length <= 60) return 66;
  return 54;
}

/** The site's look: night indigo with the accent (#4338ca, the buttons' colour) as a band, white Inter type. */
function cardTree(card: Card, width: number, height: number): Node {
  const logo = card.logoSvg
    ? h('img', { width: 132, height: 132, borderRadius: 26, marginRight: 44, flexShrink: 0 }, undefined, {
        src: `data:image/svg+xml;base64,${Buffer.from(card.logoSvg).toString('base64')}`,
        width: 132,
        height: 132,
      })
    : null;
  return h(
    'div',
    {
      width,
      height,
      // satori sizes boxes without their padding and border unless told.
      boxSizing: 'border-box',
      display: 'flex',
      flexDirection: 'column',
      justifyContent: 'space-between',
      padding: '64px 72px',
      // Flat colours keep the PNG small (a gradient made it ten times larger).
      background: '#1e1b4b',
      borderLeft: '24px solid #4338ca',
      color: '#ffffff',
      fontFamily: 'Inter',
    },
    [
      h('div', { display: 'flex', alignItems: 'center', fontSize: 34, fontWeight: 800 }, [
        h(
          'div',
          {
            display: 'flex',
            width: 56,
            height: 56,
            borderRadius: 14,
            background: '#ffffff',
            color: '#4338ca',
            alignItems: 'center',
            justifyContent: 'center',
            marginRight: 20,
            fontSize: 26,
          },
          'AI',
        ),
        SITE_NAME,
      ]),
      h('div', { display: 'flex', alignItems: 'center', width: '100%' }, [
        logo,
        h(
          'div',
          {
            display: 'block',
            flex: 1,
            minWidth: 0,
            fontSize: titleSize(card.title),
            fontWeight: 800,
            lineHeight: 1.1,
            letterSpacing: -1,
            lineClamp: 3,
          },
          card.title,
        ),
      ]),
      h('div', { display: 'flex', alignItems: 'center', fontSize: 30 }, [
        card.category
          ? h(
              'div',
              {
                display: 'flex',
                padding: '10px 24px',
                borderRadius: 999,
                background: 'rgba(255,255,255,0.16)',
                border: '2px solid rgba(255,255,255,0.45)',
                marginRight: 24,
              },
              card.category,
            )
          : null,
        h('div', { display: 'flex', color: '#c7d2fe' }, card.label),
      ]),
    ],
  );
}

/** The picture's pixels (about 150 ms to lay out and rasterise); `outWidth` scales the same layout down. */
export async function renderCard(card: Card, outWidth?: number) {
  const { width, height } = card.size === 'social' ? SOCIAL_IMAGE_SIZE : COVER_IMAGE_SIZE;
  const svg = await satori(cardTree(card, width, height) as never, { width, height, fonts: loadFonts() });
  return new Resvg(svg, { fitTo: { mode: 'width', value: outWidth ?? width } }).render();
}

/** The picture's bytes. PNG: a palette PNG (10-20 kB for 1200x630), or an RGBA one when it has more colours than a
 *  palette holds (a brand logo's gradient). WebP: lossless, the same pixels. */
export async function renderCardImage(card: Card, outWidth?: number, format: ImageFormat = 'png'): Promise<Uint8Array> {
  const image = await renderCard(card, outWidth);
  if (format === 'webp') return losslessWebp(image.pixels, image.width, image.height);
  return indexedPng(image.pixels, image.width, image.height) ?? image.asPng();
}
