import { createRequire } from 'node:module';

/** The packages every part of the site shares as one copy: in the browser through federation, on the server
 *  through the module resolve hook. Subpaths (react/jsx-runtime, react-dom/server, ...) follow their package. */
export const SHARED_PACKAGES = ['react', 'react-dom', 'react-router-dom', 'zustand'] as const;
export type SharedPackage = (typeof SHARED_PACKAGES)[number];

/** react-router-dom re-exports react-router, so that one must be single too on the server. */
const SERVER_SINGLETONS = [...SHARED_PACKAGES, 'react-router', 'scheduler'];

export function isSharedSpecifier(specifier: string): boolean {
  return SERVER_SINGLETONS.some((p) => specifier === p || specifier.startsWith(`${p}/`));
}

/** The installed version of each shared package, read from its own metadata as Node resolves it from `parent` (a
 *  package.json or other file path): the shell's copy, which the browser and the server share. One that is not
 *  installed is left out. */
export function installedSharedVersions(parent: string): Partial<Record<SharedPackage, string>> {
  const from = createRequire(parent);
  const out: Partial<Record<SharedPackage, string>> = {};
  for (const name of SHARED_PACKAGES) {
    try {
      out[name] = (from(`${name}/package.json`) as { version: string }).version;
    } catch {
      /* not installed */
    }
  }
  return out;
}
