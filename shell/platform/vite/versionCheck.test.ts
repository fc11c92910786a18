// @vitest-environment node
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REMOTE_NAMES } from '../src/routeTable';
import { PLUGIN_SATISFY, sharedConfig } from './federationConfig';
import { SHARED_PACKAGES, installedSharedVersions } from './shared';
import { quickSatisfy } from './versionCheck';

/** The federation plugin's own check, which the quick one stands in for. */
const { satisfy } = (await import(pathToFileURL(PLUGIN_SATISFY).href)) as {
  satisfy: (version: string, range: string) => boolean;
};

const VERSIONS = ['0.0.0', '0.0.3', '0.0.4', '0.2.3', '0.2.9', '0.3.0', '1.0.0', '1.2.2', '1.2.3', '1.2.9', '1.3.0'];
const MORE_VERSIONS = ['2.0.0', '5.0.8', '5.1.0', '6.0.0', '7.18.5', '7.18.6', '7.19.0', '18.3.1', '19.2.0', '19.3.1'];
const RANGES = ['^0.0.3', '^0.2.3', '^1.2.3', '~0.2.3', '~1.2.3', '1.2.3', '0.2.3', ' ^1.2.3 ', '^19.2.0', '^7.18.6'];
const MORE_RANGES = ['^5.0.8', '~19.2.0', '19.3.1', '^0.0.0', '~0.0.3', '^10.0.0', '^1.0.0', '^2.0.0'];

const root = fileURLToPath(new URL('../../..', import.meta.url));

describe('quickSatisfy', () => {
  it("answers as the plugin's check does, for every version against every range of the forms it knows", () => {
    for (const version of [...VERSIONS, ...MORE_VERSIONS])
      for (const range of [...RANGES, ...MORE_RANGES])
        expect([version, range, quickSatisfy(version, range)]).toEqual([version, range, satisfy(version, range)]);
  });

  it("leaves other ranges and versions to the plugin's check", () => {
    for (const [version, range] of [
      ['19.3.1', '>=19.0.0'],
      ['19.3.1', '19.x'],
      ['19.3.1', '*'],
      ['19.3.1', '^18.0.0 || ^19.0.0'],
      ['19.3.1', '^19'],
      ['19.3.1', '=19.3.1'],
      ['19.3.0-canary.1', '^19.2.0'],
      ['19.3.1+build', '^19.2.0'],
      ['01.2.3', '^1.2.3'],
      ['1.2.3', '^01.2.3'],
    ])
      expect([version, range, quickSatisfy(version, range)]).toEqual([version, range, undefined]);
  });

  it("answers every remote's ranges for the shell's installed versions, and refuses another major", () => {
    const installed = installedSharedVersions(join(root, 'shell/package.json'));
    for (const remote of REMOTE_NAMES) {
      const shared = sharedConfig(join(root, `mfe-${remote}`));
      for (const name of SHARED_PACKAGES) {
        const range = shared[name]!.requiredVersion!;
        expect([remote, name, quickSatisfy(installed[name]!, range)]).toEqual([remote, name, true]);
        const nextMajor = `${Number(installed[name]!.split('.')[0]) + 1}.0.0`;
        expect([remote, name, quickSatisfy(nextMajor, range)]).toEqual([remote, name, false]);
      }
    }
  });
});
