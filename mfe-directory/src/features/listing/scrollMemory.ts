import { readJson, writeJson } from '@aitools/platform';

/** Scroll position per path, saved before an in-app navigation from the list and restored on Back. */
const SCROLL_MEMORY_KEY = 'directoryScrollPositions';
export const SCROLL_MAX_AGE_MS = 30 * 60 * 1000;

export interface ScrollPosition {
  x: number;
  y: number;
  timestamp: number;
}

type Store = Record<string, ScrollPosition>;

/** Drops positions older than 30 minutes. */
export function pruneExpired(store: Store, now: number): Store {
  return Object.fromEntries(Object.entries(store).filter(([, p]) => p && now - p.timestamp < SCROLL_MAX_AGE_MS));
}

export function saveScrollPosition(path: string, x: number, y: number, now = Date.now()): void {
  const store = pruneExpired(readJson<Store>(SCROLL_MEMORY_KEY, {}), now);
  store[path] = { x, y, timestamp: now };
  writeJson(SCROLL_MEMORY_KEY, store);
}

/** The fresh saved position of a path, or null; expired ones are discarded on the way. */
export function takeScrollPosition(path: string, now = Date.now()): ScrollPosition | null {
  const raw = readJson<Store>(SCROLL_MEMORY_KEY, {});
  const store = pruneExpired(raw && typeof raw === 'object' ? raw : {}, now);
  const pos = store[path] ?? null;
  delete store[path];
  writeJson(SCROLL_MEMORY_KEY, store);
  return pos;
}
