/**
 * Cache busting: a flood of 20 connections on one page, either its plain address or a new ignored parameter per
 * request (`?utm_source=x<n>`), and meanwhile a visitor who loads another page one request after another. Prints the
 * flood's answers per second and the visitor's p95: a parameter the page does not read should cost nothing
 * (docs/architecture.md, Caching; docs/performance.md, Cache busting).
 */
import autocannon from 'autocannon';
import { summarize } from './stats';

export interface Busting {
  floodRps: number;
  /** Flood answers that were not 2xx (a 429 included), socket errors and timeouts. */
  floodFailures: number;
  visitorP95: number;
  visits: number;
}

/** `path(i)`: the flood's i-th address; the visitor loads `visitorUrl` until the flood ends. */
export async function bustingRun(
  base: string,
  path: (i: number) => string,
  visitorUrl: string,
  seconds: number,
): Promise<Busting> {
  let i = 0;
  let flooding = true;
  const times: number[] = [];
  const visitor = (async () => {
    while (flooding) {
      const t = performance.now();
      const res = await fetch(visitorUrl, { headers: { 'accept-encoding': 'gzip' } });
      await res.arrayBuffer();
      if (flooding) times.push(performance.now() - t);
    }
  })();
  const flood = await autocannon({
    url: base,
    connections: 20,
    duration: seconds,
    headers: { 'accept-encoding': 'gzip' },
    requests: [{ setupRequest: (req) => ({ ...req, path: path(i++) }) }],
  });
  flooding = false;
  await visitor;
  return {
    floodRps: flood.requests.average,
    floodFailures: flood.non2xx + flood.errors + flood.timeouts,
    visitorP95: summarize(times).p95,
    visits: times.length,
  };
}
