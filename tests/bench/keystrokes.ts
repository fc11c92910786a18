/**
 * Keystroke to results at a large catalogue, this build beside the build before the ranked search, measured in turn
 * (docs/performance.md, Directory search). Each build serves its own copy of a generated catalogue, made by its own
 * generator (this build's is the one the payload rows generated), and a twin server on a second copy answers the totals the measure waits for, so the server typed into
 * makes every key's reply afresh, as for a visitor typing something new (browser.ts, keystrokeToResults).
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { keystrokeToResults } from './browser';
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

/** A build's two servers, each on its own copy of `catalogue` (a generated database, closed). */
async function serve(
  dir: string,
  name: string,
  catalogue: string,
  start: (database: string) => Promise<Site>,
): Promise<Served> {
  const [typed, totals] = ['', '-totals'].map((suffix) => join(dir, `keystrokes-${name}${suffix}.sqlite`));
  copyFileSync(catalogue, typed);
  copyFileSync(catalogue, totals);
  const first = await start(typed);
  try {
    return { typed: first, totals: await start(totals) };
  } catch (err) {
    await first.stop();
    throw err;
  }
}

/**
 * Keystroke to results for this build, on `catalogue` (its generated database of `size` tools, closed), and, given
 * its prepared tree, the baseline's on a catalogue of the same size from its own generator, round by round in turn.
 */
export async function keystrokesInTurn(
  browser: Browser,
  dir: string,
  catalogue: string,
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
      const generated = join(dir, 'keystrokes-baseline-catalogue.sqlite');
      await (await generate(generated, size)).destroy();
      const start = (db: string) => startBaselineSite(baselineTree, { DATABASE_PATH: db });
      builds.push(['baseline', await serve(dir, 'baseline', generated, start)]);
    }
    log(`payload: keystrokes, this build: the catalogue of ${size} tools and servers generated above`);
    builds.push(['current', await serve(dir, 'current', catalogue, startCurrent)]);
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
