import { statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { RouteModule, ServerEntry } from '@aitools/platform/contract';
import type { ResolvedRelease } from '../releases/layout';

/**
 * Imports a release's server entry. Each release has its own path, so Node's module cache keys it per release;
 * a file that changed (a development build at a fixed path, or a release folder restored after a fault) is
 * imported afresh: its mtime and size go into the URL, since Node keeps even a failed import per URL.
 * Imported releases stay in memory; that is why the release tool checks an entry in a separate process first.
 */
export async function importServerEntry(release: ResolvedRelease): Promise<ServerEntry> {
  const url = pathToFileURL(release.serverEntry);
  const st = statSync(release.serverEntry);
  url.search = `?v=${st.mtimeMs}-${st.size}`;
  const mod = (await import(url.href)) as { default?: ServerEntry };
  if (!mod.default || typeof mod.default.routes !== 'object')
    throw new Error(`${release.serverEntry} has no route table`);
  return mod.default;
}

export async function importRoute(
  release: ResolvedRelease,
  module: string,
  load = importServerEntry,
): Promise<RouteModule> {
  const entry = await load(release);
  const route = entry.routes[module];
  if (!route) throw new Error(`Release ${release.remote}/${release.id} does not expose ${module}`);
  return route;
}
