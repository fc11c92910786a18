/** For tests: the routes an app declares, read from its routers (the generated bad-request set). */
import express, { type Express } from 'express';

/** One address the app answers, as its routers declare it: a path pattern and its methods (null: any method). */
export interface DeclaredRoute {
  path: string;
  methods: string[] | null;
}

interface Layer {
  rawPath?: unknown;
  route?: { _methods(all?: boolean): string[] };
  handle: { stack?: Layer[] };
}

/**
 * Records which apps are mounted on which (app.use wraps a sub-app in a function the parent's router cannot see
 * through), for routesOf. Call before the apps are made; the returned function undoes it.
 */
export function recordMountedApps(): { mounted: Map<Express, Express[]>; stop: () => void } {
  const mounted = new Map<Express, Express[]>();
  const use = express.application.use;
  express.application.use = function (this: Express, ...args: unknown[]) {
    for (const fn of args.flat())
      if (typeof fn === 'function' && 'handle' in fn && 'set' in fn)
        mounted.set(this, [...(mounted.get(this) ?? []), fn as unknown as Express]);
    return use.apply(this, args as Parameters<typeof use>);
  } as typeof use;
  return { mounted, stop: () => void (express.application.use = use) };
}

const join = (prefix: string, path: string) => `${prefix}/${path}`.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1');

function walk(stack: Layer[], prefix: string): DeclaredRoute[] {
  return stack.flatMap((layer) => {
    const paths = (Array.isArray(layer.rawPath) ? layer.rawPath : [layer.rawPath]).filter(
      (p): p is string => typeof p === 'string',
    );
    return paths.flatMap((path) => {
      if (layer.route) return [{ path: join(prefix, path), methods: layer.route._methods(true) }];
      if (Array.isArray(layer.handle.stack)) return walk(layer.handle.stack, join(prefix, path));
      // A mounted handler (static files, a release's files): any method, below its path.
      return path === '/' ? [] : [{ path: join(prefix, path), methods: null }];
    });
  });
}

/** Every route an app (and the apps mounted on it) declares with a string path; regular-expression routes are left
 *  to the caller (the pages: the route table). */
export function routesOf(app: Express, mounted: Map<Express, Express[]>, prefix = ''): DeclaredRoute[] {
  const own = walk((app.router as unknown as { stack: Layer[] }).stack, prefix);
  const children = (mounted.get(app) ?? []).flatMap((sub) =>
    routesOf(sub, mounted, join(prefix, String(sub.mountpath))),
  );
  return [...own, ...children];
}
