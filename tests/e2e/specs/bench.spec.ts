/**
 * The benchmark's phone rows visit pages in a Chromium with no debugger on the page (bench/plainChromium.ts, and
 * "A debugger on the page costs the page" in docs/performance.md). This runs that harness against the production
 * build.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { PlainChromium, type PlainVisit } from '../../bench/plainChromium';
import { phoneTimes } from '../../bench/browser';
import { serveFloor } from '../../bench/floor';

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

it("serves the floor: the page as rendered, whose code is the shell's vendor chunk alone, and that reaches ready", async () => {
  const floor = await serveFloor(BASE);
  try {
    const page = await (await fetch(`${BASE}/privacy`)).text();
    const html = await (await fetch(`${floor.baseUrl}/privacy`, { headers: { accept: 'text/html' } })).text();
    const list = (doc: string) =>
      JSON.parse(/<script type="application\/json" id="__PAGE_CODE__">([^<]*)<\/script>/.exec(doc)![1]!) as string[];
    const vendor = list(page).find((href) => href.startsWith('/assets/vendor-'));
    assert.ok(vendor, 'the page names the shell vendor chunk');
    // The floor's module first, then the shell's chunks but its entry: no remote's module, no shell entry.
    const [first, ...rest] = list(html);
    assert.equal(first, '/__bench-floor.js');
    assert.ok(rest.includes(vendor));
    assert.deepEqual(
      rest,
      list(page)
        .slice(1)
        .filter((href) => href.startsWith('/assets/')),
    );
    assert.equal(
      html.replace(/<script type="application\/json" id="__PAGE_CODE__">[^<]*/, ''),
      page.replace(/<script type="application\/json" id="__PAGE_CODE__">[^<]*/, ''),
    );
    const start = await (await fetch(`${floor.baseUrl}/__bench-floor.js`)).text();
    assert.match(start, new RegExp(`import \\* as vendor from "${vendor}"`));
    const t = await chromium.visit(`${floor.baseUrl}/privacy`, UNTHROTTLED);
    assert.ok(t.ready > t.paint, `the floor ready at ${t.ready} ms, after the first paint at ${t.paint} ms`);
  } finally {
    await floor.stop();
  }
});
