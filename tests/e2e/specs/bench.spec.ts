/**
 * The benchmark's phone rows visit pages in a Chromium with no debugger on the page (bench/plainChromium.ts, and
 * "A debugger on the page costs the page" in docs/performance.md). This runs that harness against the production
 * build.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { PlainChromium, type PlainVisit } from '../../bench/plainChromium';
import { phoneTimes } from '../../bench/browser';

const BASE = process.env.BASE_URL!;
/** A visit with no network slowdown, for the checks that are about how a visit ends. */
const UNTHROTTLED: PlainVisit = {
  network: { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 },
  screen: { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true },
};
let chromium: PlainChromium;

before(async () => {
  chromium = await PlainChromium.launch();
});
after(() => chromium.close());

it('times a cold visit on the emulated phone: the first paint, then code ready for that page', async () => {
  const t = await phoneTimes(chromium, `${BASE}/privacy`, 2);
  assert.ok(t.paint > 0, `first paint at ${t.paint} ms`);
  assert.ok(t.ready > t.paint, `code ready at ${t.ready} ms, after the first paint at ${t.paint} ms`);
});

it('fails a visit whose page never names itself ready, instead of waiting for ever', { timeout: 30_000 }, async () => {
  // A JSON answer has no shell, so no route-ready mark: the visit must end with an error, not hang the bench.
  await assert.rejects(
    chromium.visit(`${BASE}/api/tools`, { ...UNTHROTTLED, timeoutMs: 2_000 }),
    /no route-ready mark/,
  );
});

it('fails a visit whose browser dies during it, instead of waiting for ever', { timeout: 30_000 }, async () => {
  const doomed = await PlainChromium.launch();
  try {
    const visit = doomed.visit(`${BASE}/privacy`, UNTHROTTLED);
    process.kill(doomed.pid!, 'SIGKILL');
    await assert.rejects(visit, /DevTools connection closed/);
  } finally {
    await doomed.close();
  }
});
