import { createContext, useContext } from 'react';
import type { RouteModule } from '@aitools/platform';
import { ChunkLoadError } from './ChunkLoadError';
import { chunkId, loadRemoteModule } from './loadRemote';
import type { RemoteManifest } from './manifest';

/**
 * Where the shell gets a remote's route modules: on the server, the active release's server entry (one source per
 * request); in the browser, the federated module of the release the page was rendered with. The route's loader
 * loads the module, so the component can take it synchronously when it renders.
 */
export interface ModuleSource {
  /** The module, if it is loaded. */
  get(remote: string, module: string): RouteModule | undefined;
  load(remote: string, module: string): Promise<RouteModule>;
  /** "Try again": the next load of this remote starts afresh (browser only). */
  retry?(remote: string): void;
  /** How many retries this remote has had. */
  attempts?(remote: string): number;
}

export const SourceContext = createContext<ModuleSource | null>(null);

export function useModuleSource(): ModuleSource {
  const source = useContext(SourceContext);
  if (!source) throw new Error('useModuleSource must be used within a SourceContext provider');
  return source;
}

/** A route module as exposed: an object with a Component (anything else means the release is not one we can run). */
export function asRouteModule(value: unknown, remote: string, module: string, request: string): RouteModule {
  if (value && typeof value === 'object' && typeof (value as RouteModule).Component === 'function')
    return value as RouteModule;
  throw new ChunkLoadError(chunkId(remote, module), 'missing', request);
}

export function browserModuleSource(releases: RemoteManifest, load = loadRemoteModule): ModuleSource {
  const modules = new Map<string, RouteModule>();
  const pending = new Map<string, Promise<RouteModule>>();
  const attempts = new Map<string, number>();
  const key = (remote: string, module: string) => `${remote}|${module}`;
  return {
    get: (remote, module) => modules.get(key(remote, module)),
    load(remote, module) {
      const k = key(remote, module);
      const done = modules.get(k);
      if (done) return Promise.resolve(done);
      let p = pending.get(k);
      if (!p) {
        p = load<unknown>(remote, module, { manifest: releases, attempt: attempts.get(remote) ?? 0 })
          .then((value) => {
            const mod = asRouteModule(value, remote, module, releases[remote]?.entry ?? `remote:${remote}`);
            modules.set(k, mod);
            return mod;
          })
          .finally(() => pending.delete(k));
        pending.set(k, p);
      }
      return p;
    },
    retry: (remote) => void attempts.set(remote, (attempts.get(remote) ?? 0) + 1),
    attempts: (remote) => attempts.get(remote) ?? 0,
  };
}
