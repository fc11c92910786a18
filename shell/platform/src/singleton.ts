/** One instance per page (browser) or per process (server), even when several bundles carry this SDK:
 *  each remote bundles its own copy, so anything stateful is keyed on the global object. */
export function globalSingleton<T>(key: string, create: () => T): T {
  const g = globalThis as unknown as Record<symbol, T>;
  const sym = Symbol.for(`aitools.${key}`);
  if (!(sym in g)) g[sym] = create();
  return g[sym];
}
