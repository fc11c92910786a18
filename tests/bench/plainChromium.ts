/**
 * Debian's Chromium driven over the DevTools protocol with nothing on its pages but what a visit measurement needs:
 * network and screen emulation, and the route-ready note. Playwright enables the Runtime domain on every page it
 * opens, and with it V8 records a detailed stack at every `Error` it constructs, parsing the frames' functions again
 * for their source positions: 12-15 ms on a page start that evaluates React DOM (its module creates five errors), and
 * Playwright's own scripts run on the page as well. A visitor's browser does neither ("A debugger on the page
 * costs the page" in docs/performance.md).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH, markRouteReady } from '../e2e/browser';

interface Pending {
  resolve: (result: Record<string, unknown>) => void;
  reject: (err: Error) => void;
}

export interface PlainVisit {
  /** the page's network conditions (Network.emulateNetworkConditions) */
  network: { offline: boolean; latency: number; downloadThroughput: number; uploadThroughput: number };
  screen: {
    viewport: { width: number; height: number };
    deviceScaleFactor: number;
    isMobile: boolean;
    hasTouch: boolean;
  };
  /** how long to wait for the route-ready mark (default 60 s) */
  timeoutMs?: number;
}

export class PlainChromium {
  private next = 0;
  private readonly pending = new Map<number, Pending>();

  private constructor(
    private readonly process: ChildProcess,
    private readonly socket: WebSocket,
    private readonly profile: string,
  ) {
    socket.addEventListener('message', (event) => {
      const msg = JSON.parse(String(event.data)) as {
        id?: number;
        result?: Record<string, unknown>;
        error?: { message: string };
      };
      const call = msg.id === undefined ? undefined : this.pending.get(msg.id);
      if (!call) return;
      this.pending.delete(msg.id!);
      if (msg.error) call.reject(new Error(msg.error.message));
      else call.resolve(msg.result ?? {});
    });
    // A browser that dies mid-visit ends the visit with an error instead of leaving the bench waiting.
    socket.addEventListener('close', () => {
      for (const call of this.pending.values()) call.reject(new Error('the DevTools connection closed'));
      this.pending.clear();
    });
  }

  static async launch(): Promise<PlainChromium> {
    const profile = mkdtempSync(join(tmpdir(), 'aitools-plain-chromium-'));
    const child = spawn(
      CHROMIUM_PATH,
      ['--headless=new', ...CHROMIUM_ARGS, `--user-data-dir=${profile}`, '--remote-debugging-port=0', 'about:blank'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    // Its log is read until the DevTools address appears, then drained unread: Chromium logs for as long as it runs.
    const endpoint = await new Promise<string>((resolve, reject) => {
      let err = '';
      const fail = (why: string) => {
        clearTimeout(timer);
        child.kill();
        rmSync(profile, { recursive: true, force: true });
        reject(new Error(`${why}: ${err.slice(-300)}`));
      };
      const timer = setTimeout(() => fail('Chromium did not start'), 30_000);
      const read = (d: Buffer) => {
        err += d;
        const found = /DevTools listening on (ws:\/\/\S+)/.exec(err);
        if (!found) return;
        clearTimeout(timer);
        child.off('exit', exited);
        child.stderr!.off('data', read).resume();
        resolve(found[1]!);
      };
      const exited = (code: number | null) => fail(`Chromium exited with ${code}`);
      child.stderr!.on('data', read);
      child.on('exit', exited);
    });
    const socket = new WebSocket(endpoint);
    await new Promise((resolve, reject) => {
      socket.addEventListener('open', resolve, { once: true });
      socket.addEventListener('error', () => reject(new Error('no DevTools connection')), { once: true });
    });
    return new PlainChromium(child, socket, profile);
  }

  private send(method: string, params: object = {}, sessionId?: string): Promise<Record<string, unknown>> {
    if (this.socket.readyState !== WebSocket.OPEN) return Promise.reject(new Error('the DevTools connection closed'));
    const id = ++this.next;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ id, method, params, sessionId }));
    });
  }

  /** Visits `url` in a fresh profile (empty cache) until the route is ready; answers the page's first paint and
   *  code ready, in ms since navigation start. */
  async visit(url: string, opts: PlainVisit): Promise<{ paint: number; ready: number }> {
    const { browserContextId } = await this.send('Target.createBrowserContext');
    const { targetId } = await this.send('Target.createTarget', { url: 'about:blank', browserContextId });
    try {
      const { sessionId } = (await this.send('Target.attachToTarget', { targetId, flatten: true })) as {
        sessionId: string;
      };
      const on = (method: string, params: object = {}) => this.send(method, params, sessionId);
      await on('Page.enable');
      await on('Network.enable');
      await on('Network.emulateNetworkConditions', opts.network);
      const { viewport, deviceScaleFactor, isMobile, hasTouch } = opts.screen;
      await on('Emulation.setDeviceMetricsOverride', { ...viewport, deviceScaleFactor, mobile: isMobile });
      await on('Emulation.setTouchEmulationEnabled', { enabled: hasTouch });
      await on('Page.addScriptToEvaluateOnNewDocument', { source: `(${markRouteReady.toString()})()` });
      await on('Page.navigate', { url });
      // Runtime.evaluate answers without Runtime.enable: a poll costs the page microseconds.
      const paint = `performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN`;
      const read = `window.__routeReadyAt === undefined ? null : [${paint}, window.__routeReadyAt]`;
      const timeoutMs = opts.timeoutMs ?? 60_000;
      for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
        await new Promise((r) => setTimeout(r, 50));
        const { result } = (await on('Runtime.evaluate', { expression: read, returnByValue: true })) as {
          result: { value: [number, number] | null };
        };
        if (result.value) return { paint: result.value[0], ready: result.value[1] };
      }
      throw new Error(`${url}: no route-ready mark within ${timeoutMs / 1000} s`);
    } finally {
      await this.send('Target.closeTarget', { targetId });
      await this.send('Target.disposeBrowserContext', { browserContextId });
    }
  }

  /** The browser's process id. */
  get pid(): number | undefined {
    return this.process.pid;
  }

  async close(): Promise<void> {
    this.socket.close();
    const running = this.process.exitCode === null && this.process.signalCode === null;
    if (running) {
      const exited = new Promise((r) => this.process.once('exit', r));
      this.process.kill();
      await exited;
    }
    rmSync(this.profile, { recursive: true, force: true });
  }
}
