/**
 * The version check in every remote's federation runtime, in place of the plugin's (`satisfy(version, range)`, for
 * each shared package the host offers, against the range in the remote's package.json): the plugin's compiles about
 * a dozen large regular expressions at a page's first check (docs/performance.md, "A quick version check" in
 * "Phones"). The ranges the site's remotes use are answered by comparing numbers (versionCheck.ts); any other still
 * goes to the plugin's check, so a remote built for another major of React is refused as before. federationConfig.ts
 * puts this module in the runtime's place.
 */
import { satisfy as pluginSatisfy } from 'federation-plugin-satisfy';
import { quickSatisfy } from './versionCheck';

export const satisfy = (version: string, range: string): boolean =>
  quickSatisfy(version, range) ?? pluginSatisfy(version, range);
