/**
 * Keystroke to results at a large catalogue, this build beside the build before the ranked search, measured in turn
 * (docs/performance.md, Directory search). Each build serves its own copy of a generated catalogue, made by its own
 * generator, and a twin server on a second copy answers the totals the measure waits for, so the server typed into
 * makes every key's reply afresh, as for a visitor typing something new (browser.ts, keystrokeToResults).
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { keystrokeToResults } from './browser';
import { buildCatalogueDatabase } from './catalogue';
import { startBaselineSite } from './baseline';
import { startCurrent } from './site';
import { summarize } from './stats';
import type { Site } from '../e2e/harness';

/** The landed build before the ranked search (its search a substring filter): the figure's "before". */
export const KEYSTROKE_BASELINE = 'c8b61a5';

/** Typed in turn by both builds, one round of words each: no word twice, so no reply is made before its key. */
const ROUNDS = [
  ['github', 'notion', 'claude', 'design', 'sales'],
  ['slack', 'figma', 'linear', 'stripe', 'video'],
  ['image', 'voice', 'agent', 'write', 'music'],
  ['email', 'sheet', 'avatar', 'audio', 'trade'],
  ['paper', 'legal', 'health', 'story', 'photo'],
  ['chart', 'travel', 'search', 'logo', 'data'],
];

export interface KeystrokeFigures {
  median: number;
  p95: number;
  keys: number;
}

type Generator = (path: string, total: number) => Promise<{ destroy(): Promise<void> }>;

interface Served {
  typed: Site;
  totals: Site;
}

/** A build's two servers on two copies of its generated catalogue. */
async function serve(
  dir: string,
  name: string,
  size: number,
  generate: Generator,
  start: (database: string) => Promise<Site>,
): Promise<Served> {
  const typed = join(dir, `keystrokes-${name}.sqlite`);
  const totals = join(dir, `keystrokes-${name}-totals.sqlite`);
  await (await generate(typed, size)).destroy();
  copyFileSync(typed, totals);
  return { typed: await start(typed), totals: await start(totals) };
}

/** Keystroke to results for this build and, given its prepared tree, the baseline's, round by round in turn. */
export async function keystrokesInTurn(
  browser: Browser,
  dir: string,
  size: number,
  baselineTree: string | null,
  log: (line: string) => void,
): Promise<{ current: KeystrokeFigures; baseline: KeystrokeFigures | null }> {
  const builds: [string, Served][] = [];
  try {
    if (baselineTree) {
      log(`payload: keystrokes, before (${KEYSTROKE_BASELINE}): its own catalogue of ${size} tools and servers`);
      const { buildCatalogueDatabase: generate } = (await import(
        pathToFileURL(join(baselineTree, 'tests', 'bench', 'catalogue.ts')).href
      )) as { buildCatalogueDatabase: Generator };
      builds.push([
        'baseline',
        await serve(dir, 'baseline', size, generate, (db) => startBaselineSite(baselineTree, { DATABASE_PATH: db })),
      ]);
    }
    log(`payload: keystrokes, this build: its catalogue of ${size} tools and servers`);
    builds.push(['current', await serve(dir, 'current', size, buildCatalogueDatabase, startCurrent)]);
    const samples = new Map<string, number[]>(builds.map(([name]) => [name, []]));
    for (const [round, words] of ROUNDS.entries())
      for (const [name, { typed, totals }] of builds) {
        log(`payload: keystrokes, round ${round + 1} of ${ROUNDS.length}, ${name}`);
        const k = await keystrokeToResults(browser, typed.baseUrl, words, totals.baseUrl);
        samples.get(name)!.push(...k.samples);
      }
    const figures = (name: string): KeystrokeFigures | null => {
      const s = samples.get(name);
      return s ? { ...summarize(s), keys: s.length } : null;
    };
    return { current: figures('current')!, baseline: figures('baseline') };
  } finally {
    for (const [, { typed, totals }] of builds) await Promise.all([typed.stop(), totals.stop()]);
  }
}
