/**
 * Run in a separate process before a release is activated: imports the release's server entry (with the shared
 * packages resolved to the shell's copy, as the server does) and checks that it exposes the expected routes.
 * A broken entry fails here, not in the running server, whose module cache would keep the failure.
 * Usage: tsx checkEntry.ts <entry.js> <module,module,...>
 */
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { SHARED_RESOLVE_PARENT } from '../paths';

register('../ssr/sharedResolveHooks.ts', import.meta.url, {
  data: { shellUrl: pathToFileURL(SHARED_RESOLVE_PARENT).href },
});

const [entryPath, modules = ''] = process.argv.slice(2);
try {
  const mod = (await import(pathToFileURL(entryPath).href)) as {
    default?: { routes?: Record<string, { Component?: unknown }> };
  };
  const routes = mod.default?.routes;
  if (!routes) throw new Error('the server entry has no default export with a route table');
  for (const m of modules.split(',').filter(Boolean)) {
    if (typeof routes[m]?.Component !== 'function')
      throw new Error(`the server entry does not expose a component for ${m}`);
  }
  console.log(`server entry ok: ${Object.keys(routes).join(', ')}`);
} catch (err) {
  console.error(`server entry check failed: ${(err as Error).message}`);
  process.exit(1);
}
