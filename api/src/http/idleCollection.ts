import type { EventEmitter } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Gives memory back when the site goes quiet (docs/performance.md, Memory). V8 keeps the heap a load grew (old
 * space several times the live data, a grown young space) until its next collection, and a server with no requests
 * allocates nothing to trigger one: after a minute idle the process stayed at its loaded size. So once no request
 * has arrived for a whole check period after some did, the process runs one full collection that reduces the heap
 * (V8's "last resort" flavour: compacts and releases its free pages), and the C allocator trims what that frees.
 * The collection pauses the thread for 50-150 ms, which only a quiet server can afford; it runs once per quiet
 * spell, not again until requests come back.
 */

/** How often the servers are checked for a quiet spell: a collection comes 20-40 s after the last request. Longer
 *  than the pauses of a client that loads pages now and then (the benchmark's alternating runs pause 13 s): each
 *  collection makes the next requests pay for growing the heap again, so it is kept for a site that went quiet. */
export const IDLE_CHECK_MS = 20_000;

type Collect = () => void;

let fullCollection: Collect | undefined;
/** V8's full, memory-reducing collection. The `gc` function is exposed to a new context only (the flag is read when
 *  a context is made), so the flag is set here, once, rather than on every command line that starts the server. */
export function reduceHeap(): void {
  if (!fullCollection) {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as (options: object) => void;
    fullCollection = () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  }
  fullCollection();
}

/**
 * Counts the requests of `servers` and runs `collect` when a check period passed without one since the last
 * check, and some came since the last collection. Returns a stop function. Counting is all a request costs.
 */
export function collectWhenIdle(
  servers: readonly (EventEmitter | null)[],
  { collect = reduceHeap, checkMs = IDLE_CHECK_MS }: { collect?: Collect; checkMs?: number } = {},
): () => void {
  let requests = 0;
  let seen = 0;
  let collected = 0;
  const count = () => void requests++;
  for (const server of servers) server?.on('request', count);
  const timer = setInterval(() => {
    if (requests === seen && requests !== collected) {
      collected = requests;
      collect();
    }
    seen = requests;
  }, checkMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    for (const server of servers) server?.off('request', count);
  };
}
