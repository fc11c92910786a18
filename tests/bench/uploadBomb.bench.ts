/**
 * What a release upload of compressed padding costs the server: a ~17 kB gzip body holding a release and then 16 MB
 * of zero bytes is refused by the padding rule (api/src/releases/upload.ts); this prints how long each refusal took
 * and the longest pause of the event loop meanwhile (a 5 ms interval's lateness). Prints figures; never pass/fail.
 *
 *   cd tests && pnpm exec tsx bench/uploadBomb.bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { makeTar, releaseEntries } from '../../api/test/tarFixture';
import { unpackArchive } from '../../api/src/releases/upload';

const RUNS = 10;
const bomb = gzipSync(Buffer.concat([makeTar(releaseEntries()), Buffer.alloc(16 * 1024 * 1024)]));
const dir = mkdtempSync(join(tmpdir(), 'upload-bomb-bench-'));
const times: number[] = [];
const pauses: number[] = [];
try {
  for (let run = 0; run < RUNS; run++) {
    let last = performance.now();
    let longest = 0;
    const ticks = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 5);
    const started = performance.now();
    const refused = await unpackArchive(bomb, join(dir, String(run))).then(
      () => null,
      (err: unknown) => err as Error,
    );
    times.push(performance.now() - started);
    clearInterval(ticks);
    pauses.push(longest);
    if (!refused) throw new Error('the padded archive was accepted');
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`upload bomb (${bomb.length} bytes of gzip, 16 MB of padding), ${RUNS} refusals:`);
console.log(`  time to refuse: median ${median(times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms`);
console.log(
  `  longest event-loop pause: median ${median(pauses).toFixed(1)} ms, max ${Math.max(...pauses).toFixed(1)} ms`,
);
