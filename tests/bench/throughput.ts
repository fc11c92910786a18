/** Requests per second and p99 latency of one URL under load (autocannon: 10 connections, gzip accepted). */
import autocannon from 'autocannon';

export interface Throughput {
  rps: number;
  p99: number;
  /** answers that were not 2xx, and socket errors or timeouts: a figure with these is not a clean one */
  failures: number;
}

function run(url: string, seconds: number): Promise<autocannon.Result> {
  return autocannon({ url, connections: 10, duration: seconds, headers: { 'accept-encoding': 'gzip' } });
}

export async function throughput(url: string, seconds: number): Promise<Throughput> {
  await run(url, Math.min(2, seconds)); // warm-up: JIT, the server's caches, the database's pages
  const r = await run(url, seconds);
  return { rps: r.requests.average, p99: r.latency.p99, failures: r.non2xx + r.errors + r.timeouts };
}
