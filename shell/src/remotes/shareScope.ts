/**
 * The shared packages the shell provides to remotes, registered in the federation's share scope (where a remote's
 * `init` puts them and its `importShared` looks for them). The shell imports React, React DOM and the router like any
 * module, so they come in its start-up chunks with no request of their own; zustand, which only the directory's code
 * uses, stays a chunk loaded when a remote first asks for it. See "One wave of code" in docs/performance.md.
 */
import * as react from 'react';
import * as reactDom from 'react-dom';
import * as router from 'react-router-dom';
import type { SharedPackage } from '@aitools/platform/shared';

/** The installed version of each package, written into the build by the host's Vite config (`hostFederation`). */
declare const __SHARED_VERSIONS__: Record<SharedPackage, string>;

const PROVIDED: Record<SharedPackage, () => Promise<unknown>> = {
  react: async () => react,
  'react-dom': async () => reactDom,
  'react-router-dom': async () => router,
  zustand: () => import('zustand'),
};

interface ShareScopeEntry {
  get: () => Promise<() => unknown>;
  loaded: 1;
}
type ShareScope = Record<string, Record<string, ShareScopeEntry>>;

/** Registers each package under its version in the default scope (once: a second call finds them there). */
export function provideSharedPackages(versions: Record<SharedPackage, string> = __SHARED_VERSIONS__): void {
  const global = globalThis as { __federation_shared__?: Record<string, ShareScope> };
  const scope = ((global.__federation_shared__ ??= {}).default ??= {});
  for (const [name, load] of Object.entries(PROVIDED)) {
    const version = versions[name as SharedPackage];
    (scope[name] ??= {})[version] ??= {
      get: async () => {
        const module = await load();
        return () => module;
      },
      loaded: 1,
    };
  }
}
