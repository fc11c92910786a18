/** Runs every benchmark in this folder, one after another; each prints its own figures. */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

for (const file of readdirSync(import.meta.dirname).filter((f) => f.endsWith('.bench.ts')).sort()) {
  console.log(`\n=== ${file}`);
  spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, file)], { stdio: 'inherit' });
}
