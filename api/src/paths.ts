import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folders of the repository, resolved from this file so the server can start from any working directory. */
export const API_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_ROOT = resolve(API_ROOT, '..');
/** The shell package, found as a dependency (@aitools/shell), not by its place in the repository. */
const SHELL_PACKAGE_JSON = createRequire(import.meta.url).resolve('@aitools/shell/package.json');
/** The shell's build: the page template and browser assets beside the server entry (`@aitools/shell/server`). */
export const SHELL_DIST = join(dirname(SHELL_PACKAGE_JSON), 'dist');
export const DATA_DIR = join(API_ROOT, 'data');
export const VAR_DIR = join(API_ROOT, 'var');

export { REMOTE_NAMES } from '@aitools/platform/routes';

export function remotePackageDir(remote: string): string {
  return join(REPO_ROOT, `mfe-${remote}`);
}

/** Shared packages imported by remote server entries resolve as if imported from here (see ssr/sharedResolveHooks). */
export const SHARED_RESOLVE_PARENT = SHELL_PACKAGE_JSON;
