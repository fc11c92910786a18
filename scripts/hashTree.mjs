// The repository's one folder hasher: the shell's build stamp (scripts/lib.mjs) and the release digests
// (api/src/releases/sourceHash.ts) both use it. Plain Node, because scripts/ runs before anything is installed.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Never part of what a build is made from: installed packages and build output. */
const IGNORED = new Set(['node_modules', 'dist', '.turbo']);

/**
 * SHA-256 (hex) of the files under `paths` (folders walked in name order, or single files), each fed as its path
 * relative to `base` and its bytes, so a rename changes the digest and the checkout's location does not.
 * A missing path counts as empty. `skip(path)` leaves files out (e.g. tests, which no build contains).
 */
export function hashTree(paths, { base, skip = () => false } = {}) {
  const hash = createHash('sha256');
  const add = (p) => {
    if (statSync(p).isDirectory()) {
      for (const name of readdirSync(p).sort()) if (!IGNORED.has(name)) add(join(p, name));
    } else if (!skip(p)) {
      hash.update(relative(base, p)).update('\0').update(readFileSync(p)).update('\0');
    }
  };
  for (const p of paths) if (existsSync(p)) add(p);
  return hash.digest('hex');
}
