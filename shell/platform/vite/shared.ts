/** The packages every part of the site shares as one copy: in the browser through federation, on the server
 *  through the module resolve hook. Subpaths (react/jsx-runtime, react-dom/server, ...) follow their package. */
export const SHARED_PACKAGES = ['react', 'react-dom', 'react-router-dom', 'zustand'] as const;
export type SharedPackage = (typeof SHARED_PACKAGES)[number];

/** react-router-dom re-exports react-router, so that one must be single too on the server. */
const SERVER_SINGLETONS = [...SHARED_PACKAGES, 'react-router', 'scheduler'];

export function isSharedSpecifier(specifier: string): boolean {
  return SERVER_SINGLETONS.some((p) => specifier === p || specifier.startsWith(`${p}/`));
}
