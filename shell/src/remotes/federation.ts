/**
 * The only browser modules that talk to @originjs/vite-plugin-federation: this one and the share scope it fills
 * (./shareScope.ts). Another federation runtime would replace these two (and the config helper in
 * shell/platform/vite), not the screens.
 */
// One line, so the directive covers the module name it is about.
// prettier-ignore
// @ts-expect-error virtual module provided by the federation plugin
import { __federation_method_setRemote, __federation_method_getRemote, __federation_method_unwrapDefault } from '__federation__';
import { provideSharedPackages } from './shareScope';

// The plugin keeps its initialised state on the config object; registering a remote again would reset it.
const registered = new Map<string, string>();

export async function importExposed(remote: string, entryUrl: string, exposed: string): Promise<unknown> {
  // Before the first remote's init, which copies the share scope (browser only: the server renders without it).
  provideSharedPackages();
  if (registered.get(remote) !== entryUrl) {
    __federation_method_setRemote(remote, { url: entryUrl, format: 'esm', from: 'vite' });
    registered.set(remote, entryUrl);
  }
  try {
    return __federation_method_unwrapDefault(await __federation_method_getRemote(remote, exposed));
  } catch (err) {
    // A failed entry must be fetched again on retry, not served from the plugin's state.
    registered.delete(remote);
    throw err;
  }
}
