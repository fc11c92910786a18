/**
 * Uncached server renders of the production build (`npm run build` first): /tool/<slug> and the home page's search,
 * each request at an address of its own (a new value of a parameter the page reads: a tool page's `?os=`, the search
 * text; a parameter the page does not read is no new address), so no stored page or stored read answers it and every
 * request runs the route's loader and its in-process API calls. Prints renders per second, p99, and the server's
 * CPU time per render (the steadier figure on a shared machine). Never pass/fail.
 *
 *   cd tests && pnpm exec tsx bench/renders.bench.ts [seconds]
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { startCurrent } from './site';

const PAGES: Record<string, (n: number) => string> = {
  '/tool/chatgpt?os=<n>': (n) => `/tool/chatgpt?os=${n}`,
  '/?search=<new word>': (n) => `/?search=word${n}`,
};

/** User and system CPU time of a process so far, in ms (/proc/<pid>/stat, in clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const seconds = Number(process.argv[2] ?? 10);
const site = await startCurrent();
let n = 0;
const run = (page: (n: number) => string, duration: number) =>
  autocannon({
    url: site.baseUrl,
    connections: 10,
    duration,
    headers: { 'accept-encoding': 'gzip' },
    requests: [{ setupRequest: (req) => ({ ...req, path: page(n++) }) }],
  });
try {
  for (const [name, page] of Object.entries(PAGES)) {
    await run(page, 3); // warm-up: JIT, the database's pages, the remotes' server entries
    const cpuBefore = cpuMs(site.pid);
    const r = await run(page, seconds);
    const cpuPerRender = (cpuMs(site.pid) - cpuBefore) / r.requests.total;
    const failures = r.non2xx + r.errors + r.timeouts;
    console.log(
      `${name.padEnd(22)} ${r.requests.average.toFixed(0).padStart(5)} renders/s  p99 ${r.latency.p99} ms  ` +
        `${cpuPerRender.toFixed(1)} ms CPU/render` +
        (failures ? `  (${failures} failures)` : ''),
    );
  }
} finally {
  await site.stop();
}
