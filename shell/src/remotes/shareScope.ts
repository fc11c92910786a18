/**
 * The shared packages the shell provides to remotes, registered in the federation's share scope (where a remote's
 * `init` puts them and its `importShared` looks for them). They are plain imports here, in the shell's vendor chunk,
 * so a remote's first ask costs no request ("The host shares what it already has" in docs/architecture.md).
 */
import * as react from 'react';
import * as reactDom from 'react-dom';
import * as router from 'react-router-dom';
import * as zustand from 'zustand';
import type { SharedPackage } from '@aitools/platform/shared';

/** The installed version of each package, written into the build by the host's Vite config (`hostFederation`). */
declare const __SHARED_VERSIONS__: Record<SharedPackage, string>;

const PROVIDED: Record<SharedPackage, unknown> = {
  react,
  'react-dom': reactDom,
  'react-router-dom': router,
  zustand,
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
  for (const [name, module] of Object.entries(PROVIDED)) {
    const version = versions[name as SharedPackage];
    (scope[name] ??= {})[version] ??= { get: async () => () => module, loaded: 1 };
  }
}
