import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { hashTree } from '../../../scripts/hashTree.mjs';

/** What a release bundles besides the remote's own package: a change in any of them makes a new build. */
// A type, not an interface: it is stored as release.json's Record<string, string>.
export type SourceInputs = {
  /** The remote's package: sources, package.json, vite config. */
  remote: string;
  /** shell/platform: the SDK every remote bundles, and the vite helpers that build it. */
  platform: string;
  /** contracts: the data shapes and schemas the remotes bundle (its package.json and sources). */
  contracts: string;
  /** pnpm-lock.yaml: the exact versions of everything bundled. */
  lockfile: string;
  /** tsconfig.base.json: the shared compiler settings. */
  config: string;
};

export interface ReleaseSource {
  /** Digest of all inputs: equal digests, equal builds. */
  digest: string;
  /** Short digest of each input, to tell which one changed between two releases. */
  inputs: SourceInputs;
}

/** Short form of a digest, as release.json and `pnpm releases` show it. */
export const shortDigest = (digest: string) => digest.slice(0, 12);

const isTest = (path: string) => /\.test\.tsx?$/.test(path);

/**
 * The digest of everything a remote's release is built from. `repoRoot` is the checkout that holds shell/platform,
 * contracts, the lockfile and tsconfig.base.json (tests point it at a copy).
 */
export function releaseSource(pkgDir: string, repoRoot: string): ReleaseSource {
  const tree = (base: string, paths: string[]) =>
    hashTree(
      paths.map((p) => join(base, p)),
      { base, skip: isTest },
    );
  const full: SourceInputs = {
    remote: tree(pkgDir, ['.']),
    platform: tree(join(repoRoot, 'shell', 'platform'), ['package.json', 'src', 'vite']),
    contracts: tree(join(repoRoot, 'contracts'), ['package.json', 'src']),
    lockfile: tree(repoRoot, ['pnpm-lock.yaml']),
    config: tree(repoRoot, ['tsconfig.base.json']),
  };
  const all = createHash('sha256');
  const inputs = { ...full };
  for (const name of Object.keys(full) as (keyof SourceInputs)[]) {
    all.update(`${name}:${full[name]}\n`);
    inputs[name] = shortDigest(full[name]);
  }
  return { digest: all.digest('hex'), inputs };
}

/** The checkout's commit, when the sources are a git checkout. */
export function gitCommit(repoRoot: string): string | null {
  const r = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** The workspace a package folder belongs to (nearest folder up with pnpm-workspace.yaml): what its build resolves
 *  @aitools/platform and the contracts from. `fallback` when there is none. */
export function workspaceRoot(pkgDir: string, fallback: string): string {
  for (let d = dirname(pkgDir); d !== dirname(d); d = dirname(d))
    if (existsSync(join(d, 'pnpm-workspace.yaml'))) return d;
  return fallback;
}
