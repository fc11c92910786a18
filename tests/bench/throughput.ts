/**
 * Requests per second and p99 latency of one URL under load (autocannon: 10 connections, gzip accepted), and the
 * server's CPU time per answer. The load generator shares this machine's two cores with the server and is often the
 * busier of the two; then a server that needs less CPU per answer can show fewer answers per second (it waits for
 * requests, and waking it costs the client), so the CPU figure is the one that says what the server spends.
 */
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import autocannon from 'autocannon';

export interface Throughput {
  rps: number;
  p99: number;
  /** answers that were not 2xx, and socket errors or timeouts: a figure with these is not a clean one */
  failures: number;
  /** the server process's CPU time (user and system) per answer, in µs; null when its process was not found */
  cpuMicros: number | null;
}

/** A request other than a plain GET (the MCP row's POST): method, headers and body. */
export interface RequestShape {
  method: 'POST';
  headers: Record<string, string>;
  body: string;
}

function run(url: string, seconds: number, request?: RequestShape): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections: 10,
    duration: seconds,
    ...request,
    headers: { 'accept-encoding': 'gzip', ...request?.headers },
  });
}

/** The process listening on a site's port, found through /proc (the baseline's harness does not name it). */
export function serverPid(baseUrl: string): number | null {
  const port = Number(new URL(baseUrl).port);
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  const readOrNothing = (file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return '';
    }
  };
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readOrNothing(table).split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f[1]?.endsWith(`:${hexPort}`) && f[3] === '0A') inodes.add(f[9]!);
    }
  }
  const fdsOf = (pid: string) => {
    try {
      return readdirSync(`/proc/${pid}/fd`);
    } catch {
      return []; // not ours to read, or gone
    }
  };
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    for (const fd of fdsOf(pid)) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m && inodes.has(m[1]!)) return Number(pid);
      } catch {
        /* gone */
      }
    }
  }
  return null;
}

/** User and system CPU time of a process so far, in µs (clock ticks of 10 ms on Linux). */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** Load that is not measured: the JIT's tiers, the server's caches and the database's pages settle. */
export async function warmUp(url: string, seconds: number): Promise<void> {
  await run(url, seconds);
}

/** `pid`: the server's process (serverPid), for its CPU time per answer. */
export async function throughput(
  url: string,
  seconds: number,
  pid: number | null,
  request?: RequestShape,
): Promise<Throughput> {
  await run(url, Math.min(2, seconds), request); // warm-up: JIT, the server's caches, the database's pages
  const before = pid ? cpuMicros(pid) : 0;
  const r = await run(url, seconds, request);
  const answers = r.requests.total;
  return {
    rps: r.requests.average,
    p99: r.latency.p99,
    failures: r.non2xx + r.errors + r.timeouts,
    cpuMicros: pid && answers ? (cpuMicros(pid) - before) / answers : null,
  };
}
