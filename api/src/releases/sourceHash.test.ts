import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { releaseSource, workspaceRoot } from './sourceHash';

let repo: string;

/** A small checkout: one remote, the platform, the contracts, the lockfile and the shared compiler settings. */
function write(path: string, text: string) {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), text);
}

beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), 'source-hash-'));
  write('pnpm-workspace.yaml', 'packages: [mfe-legal, shell/platform, contracts, api]\n');
  write('pnpm-lock.yaml', "lockfileVersion: '9.0'\n");
  write('tsconfig.base.json', '{}\n');
  write('mfe-legal/package.json', '{"name":"@aitools/mfe-legal","version":"1.0.0"}');
  write('mfe-legal/vite.config.ts', 'export default {};\n');
  write('mfe-legal/src/routes/Privacy.tsx', 'export const Privacy = 1;\n');
  write('shell/platform/package.json', '{"name":"@aitools/platform"}');
  write('shell/platform/src/head.ts', 'export const head = 1;\n');
  write('shell/platform/vite/federationConfig.ts', 'export const config = 1;\n');
  write('contracts/src/tools.ts', 'export const tools = 1;\n');
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

const digest = () => releaseSource(join(repo, 'mfe-legal'), repo);

describe('a release digest', () => {
  it('is stable, and changes with every input the build bundles', () => {
    const before = digest();
    expect(digest()).toEqual(before);
    const changes: Array<[keyof typeof before.inputs, string]> = [
      ['remote', 'mfe-legal/src/routes/Privacy.tsx'],
      ['remote', 'mfe-legal/vite.config.ts'],
      ['platform', 'shell/platform/src/head.ts'],
      ['platform', 'shell/platform/vite/federationConfig.ts'],
      ['contracts', 'contracts/src/tools.ts'],
      ['lockfile', 'pnpm-lock.yaml'],
      ['config', 'tsconfig.base.json'],
    ];
    let previous = before;
    for (const [input, file] of changes) {
      appendFileSync(join(repo, file), '// changed\n');
      const after = digest();
      expect(after.digest, file).not.toBe(previous.digest);
      expect(after.inputs[input], file).not.toBe(previous.inputs[input]);
      previous = after;
    }
  });

  it('notices an added file, and ignores tests and build output (no build contains them)', () => {
    const before = digest();
    write('shell/platform/src/head.test.ts', 'test');
    write('mfe-legal/dist/client/remoteEntry.js', 'x');
    write('mfe-legal/node_modules/x/index.js', 'x');
    expect(digest()).toEqual(before);
    write('contracts/src/blog.ts', 'export const blog = 1;\n');
    expect(digest().inputs.contracts).not.toBe(before.inputs.contracts);
  });

  it('does not depend on where the checkout lives', () => {
    const copy = mkdtempSync(join(tmpdir(), 'source-hash-copy-'));
    try {
      cpSync(repo, copy, { recursive: true });
      expect(releaseSource(join(copy, 'mfe-legal'), copy)).toEqual(digest());
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('reads the platform and contracts from the workspace the package belongs to', () => {
    expect(workspaceRoot(join(repo, 'mfe-legal'), '/fallback')).toBe(repo);
    expect(workspaceRoot(join(tmpdir(), 'no-workspace-here', 'pkg'), '/fallback')).toBe('/fallback');
  });
});
