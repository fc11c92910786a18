import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTRACT_VERSION } from '@aitools/platform/contract';

/** Stored release folders with what rollback and the canary check (a release.json naming this contract), built a
 *  day apart in the order given. */
export function storedReleases(releasesDir: string, remote: string, ids: readonly string[]): void {
  for (const [i, id] of ids.entries()) {
    mkdirSync(join(releasesDir, remote, id), { recursive: true });
    const meta = {
      id,
      remote,
      version: '1.0.0',
      builtAt: `2026-01-0${i + 1}T00:00:00.000Z`,
      sourceHash: id,
      shared: {},
      css: [],
      contractVersion: CONTRACT_VERSION,
    };
    writeFileSync(join(releasesDir, remote, id, 'release.json'), JSON.stringify(meta));
  }
}
