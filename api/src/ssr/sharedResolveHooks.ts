/**
 * Node module-customization hooks (module.register): a remote's server entry lives in a release folder without
 * node_modules, so its bare imports of the shared packages are resolved as if the shell had imported them.
 * The whole server then has exactly one React, React DOM and React Router (hooks and contexts work across parts).
 */
import { isSharedSpecifier } from '@aitools/platform/shared';

interface ResolveContext {
  parentURL?: string;
  conditions: string[];
}
type NextResolve = (specifier: string, context: ResolveContext) => Promise<unknown>;

let shellUrl = '';

export async function initialize(data: { shellUrl: string }) {
  shellUrl = data.shellUrl;
}

export async function resolve(specifier: string, context: ResolveContext, next: NextResolve) {
  if (isSharedSpecifier(specifier) && shellUrl && context.parentURL && !context.parentURL.includes('/node_modules/')) {
    return next(specifier, { ...context, parentURL: shellUrl });
  }
  return next(specifier, context);
}
