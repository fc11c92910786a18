import { readJson, writeJson } from '@aitools/platform';

/** The page last visited per combination of category, type and search, kept in local storage. */
export const PAGE_MEMORY_KEY = 'directoryPageMemory';

export function comboKey(category: string, type: string, search: string): string {
  return JSON.stringify([category, type, search.trim().toLowerCase()]);
}

function readAll(): Record<string, number> {
  const all = readJson<Record<string, number>>(PAGE_MEMORY_KEY, {});
  return all && typeof all === 'object' && !Array.isArray(all) ? all : {};
}

export function rememberedPage(key: string): number | null {
  const page = readAll()[key];
  return typeof page === 'number' && page >= 1 ? page : null;
}

export function rememberPage(key: string, page: number): void {
  const all = readAll();
  if (page <= 1) delete all[key];
  else all[key] = page;
  writeJson(PAGE_MEMORY_KEY, all);
}

export function forgetPage(key: string): void {
  rememberPage(key, 1);
}
