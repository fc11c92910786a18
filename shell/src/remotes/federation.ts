/**
 * The only browser module that talks to @originjs/vite-plugin-federation. Another federation runtime would
 * replace this file (and the config helper in shell/platform/vite), not the screens.
 */
// One line, so the directive covers the module name it is about.
// prettier-ignore
// @ts-expect-error virtual module provided by the federation plugin
import { __federation_method_setRemote, __federation_method_getRemote, __federation_method_unwrapDefault } from '__federation__';

// The plugin keeps its initialised state on the config object; registering a remote again would reset it.
const registered = new Map<string, string>();

export async function importExposed(remote: string, entryUrl: string, exposed: string): Promise<unknown> {
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
