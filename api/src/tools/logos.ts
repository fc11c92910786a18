import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as simpleIcons from 'simple-icons';
import { logoPath } from '@aitools/contracts/images';
import { DATA_DIR } from '../paths';

/** One entry of data/logos.json: which simple-icons mark a tool uses, in which brand colour. */
export interface LogoEntry {
  icon: string;
  hex: string;
}

const HEX = /^#[0-9a-f]{6}$/i;

/** data/logos.json, checked: every entry names an icon simple-icons has and a #rrggbb colour ("$…" keys are notes). */
export function loadLogoMap(file = join(DATA_DIR, 'logos.json')): Map<string, LogoEntry> {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const map = new Map<string, LogoEntry>();
  for (const [slug, value] of Object.entries(raw)) {
    if (slug.startsWith('$')) continue;
    const entry = value as Partial<LogoEntry>;
    if (typeof entry?.icon !== 'string' || !iconPath(entry.icon))
      throw new Error(`logos.json: ${slug}: unknown simple-icons icon "${entry?.icon}"`);
    if (typeof entry.hex !== 'string' || !HEX.test(entry.hex))
      throw new Error(`logos.json: ${slug}: hex must be #rrggbb`);
    map.set(slug, { icon: entry.icon, hex: entry.hex });
  }
  return map;
}

let iconsBySlug: Map<string, string> | null = null;

/** The SVG path (24x24 view box) of a simple-icons icon, or null. */
function iconPath(icon: string): string | null {
  iconsBySlug ??= new Map(
    Object.values(simpleIcons as Record<string, unknown>)
      .filter((i): i is { slug: string; path: string } => typeof (i as { slug?: unknown })?.slug === 'string')
      .map((i) => [i.slug, i.path]),
  );
  return iconsBySlug.get(icon) ?? null;
}

/** WCAG relative luminance of #rrggbb. */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const LIGHT_TILE = '#ffffff';
const DARK_TILE = '#0f172a';
/** WCAG 1.4.11: graphics need 3:1 against what is next to them. */
const GRAPHIC_CONTRAST = 3;

/** The tile behind the mark: white, so the brand colour reads the same in both site themes; a dark tile only
 *  for brand colours too light to stand 3:1 on white (e.g. Intercom's mint, Kagi's yellow). */
export function tileBackground(hex: string): string {
  return contrastRatio(hex, LIGHT_TILE) >= GRAPHIC_CONTRAST ? LIGHT_TILE : DARK_TILE;
}

/**
 * A self-contained square logo tile: the unmodified simple-icons mark in its brand colour on a rounded tile with a
 * thin border, so it is readable on the light and the dark page alike without depending on page CSS.
 */
export function logoTileSvg(entry: LogoEntry): string {
  const d = iconPath(entry.icon);
  if (!d) throw new Error(`unknown icon ${entry.icon}`);
  const bg = tileBackground(entry.hex);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48" width="48" height="48">` +
    `<rect x="0.5" y="0.5" width="47" height="47" rx="10" fill="${bg}" stroke="#94a3b8" stroke-opacity="0.5"/>` +
    `<g transform="translate(10 10) scale(1.1667)"><path fill="${entry.hex}" d="${d}"/></g></svg>`
  );
}

/** Which entry of data/logos.json a tool's stored logo address draws (`/logos/<slug>.svg?v=`): the slug the tool was
 *  seeded with, which stays its logo's name after an editor changes the tool's slug. */
export function logoKeyOf(logo: string | undefined): string | undefined {
  const m = /^\/logos\/([^/?]+)\.svg(?:\?|$)/.exec(logo ?? '');
  return m ? decodeURIComponent(m[1]!) : undefined;
}

/** The tool's logo address when data/logos.json maps it. */
export function logoUrlFor(map: Map<string, LogoEntry>, toolSlug: string): string | undefined {
  const entry = map.get(toolSlug);
  return entry ? logoPath(toolSlug, entry.icon, entry.hex) : undefined;
}
