/**
 * The long tasks of a page load in Chromium with 4x CPU throttling (the measuring step of docs/performance.md,
 * "Phones"): a DevTools trace of the main thread and a CPU profile, taken together, so each task over 50 ms is
 * attributed to the scripts and functions that ran in it. `pnpm exec tsx bench/longTasks.ts <url>...` prints them.
 */
import type { Browser, CDPSession } from 'playwright-core';
import { noteRouteReady } from '../e2e/browser';
import { PHONE_SCREEN } from './browser';

export const CPU_SLOWDOWN = 4;
/** A task longer than this blocks input; Total Blocking Time counts what lies beyond it. */
export const LONG_TASK_MS = 50;

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; functionName?: string; frame?: string } };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

export interface LongTask {
  /** ms since navigation start */
  start: number;
  duration: number;
  /** what ran inside, by trace event (script evaluation by URL, layout, parse), ms */
  parts: Record<string, number>;
  /** the functions the CPU profile sampled most in it (self time), ms */
  functions: Record<string, number>;
}

export interface LoadTrace {
  longTasks: LongTask[];
  /** the sum over long tasks of what lies beyond 50 ms (the blocking time of this load on this machine) */
  blocking: number;
  /** <html data-route-ready> set, ms since navigation start */
  ready: number;
}

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing'];
const short = (url: string) => url.replace(/^https?:\/\/[^/]+/, '').replace(/-[\w-]{8}\.js$/, '.js') || '(page)';

async function collectTrace(cdp: CDPSession): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => void events.push(...(e.value as unknown as TraceEvent[])));
  const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.end');
  await done;
  return events;
}

/** One cold visit to `url` with the CPU slowed `CPU_SLOWDOWN` times, traced until its code is ready and settled. */
export async function traceLoad(browser: Browser, url: string, settleMs = 1500): Promise<LoadTrace> {
  const context = await browser.newContext(PHONE_SCREEN);
  try {
    const page = await context.newPage();
    await noteRouteReady(page);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Tracing.start', { categories: CATEGORIES.join(','), transferMode: 'ReportEvents' });
    await cdp.send('Profiler.start');
    await page.goto(url);
    const path = new URL(url).pathname;
    await page.waitForFunction((p) => document.documentElement.dataset.routeReady === p, path, { timeout: 60_000 });
    // Work scheduled after the ready mark (deferred hydration, effects) counts too.
    await page.waitForTimeout(settleMs);
    const { profile } = (await cdp.send('Profiler.stop')) as {
      profile: { nodes: ProfileNode[]; startTime: number; samples: number[]; timeDeltas: number[] };
    };
    const events = await collectTrace(cdp);

    // The page's renderer (a new one for the navigation, not the blank page's): the one that parsed HTML.
    const main = events.find(
      (e) => e.name === 'ParseHTML' && (e.args as { beginData?: { url?: string } })?.beginData?.url === page.url(),
    );
    const nav = events.find((e) => e.name === 'navigationStart' || e.name === 'NavigationBodyLoader::StartLoadingBody');
    const onMain = events.filter((e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
    const t0 = nav?.ts ?? main?.ts ?? 0;
    const tasks = onMain.filter(
      (e) => e.name === 'RunTask' && (e.dur ?? 0) / 1000 > (Number(process.env.TRACE_MIN_MS) || LONG_TASK_MS),
    );

    // The profile's samples, on the trace's clock (both are the browser's monotonic microseconds).
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    const samples: { ts: number; fn: string }[] = [];
    let ts = profile.startTime;
    profile.samples.forEach((id, i) => {
      ts += profile.timeDeltas[i] ?? 0;
      const f = nodes.get(id)?.callFrame;
      if (f) samples.push({ ts, fn: f.url ? `${f.functionName || '(anonymous)'} ${short(f.url)}` : f.functionName });
    });

    const longTasks = tasks.map((task): LongTask => {
      const end = task.ts + task.dur!;
      const parts: Record<string, number> = {};
      for (const e of onMain) {
        if (e === task || e.ts < task.ts || e.ts >= end) continue;
        const url = e.args?.data?.url;
        const key =
          e.name === 'EvaluateScript' || e.name === 'v8.evaluateModule'
            ? `evaluate ${short(url ?? '')}`
            : e.name === 'FunctionCall'
              ? `call ${short(url ?? '')}`
              : [
                    'ParseHTML',
                    'Layout',
                    'UpdateLayoutTree',
                    'Paint',
                    'v8.compileModule',
                    'V8.GC_MC_BACKGROUND',
                  ].includes(e.name)
                ? e.name
                : null;
        if (key) parts[key] = (parts[key] ?? 0) + (e.dur ?? 0) / 1000;
      }
      const functions: Record<string, number> = {};
      const inTask = samples.filter((s) => s.ts >= task.ts && s.ts < end);
      for (let i = 0; i < inTask.length; i++) {
        const next = inTask[i + 1]?.ts ?? end;
        functions[inTask[i]!.fn] = (functions[inTask[i]!.fn] ?? 0) + (next - inTask[i]!.ts) / 1000;
      }
      return { start: (task.ts - t0) / 1000, duration: task.dur! / 1000, parts, functions };
    });
    const ready = await page.evaluate(() => window.__routeReadyAt ?? NaN);
    return {
      longTasks,
      blocking: longTasks.reduce((n, t) => n + t.duration - LONG_TASK_MS, 0),
      ready,
    };
  } finally {
    await context.close();
  }
}

declare global {
  interface Window {
    __routeReadyAt?: number;
  }
}

const top = (r: Record<string, number>, n: number) =>
  Object.entries(r)
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${k} ${v.toFixed(0)}`)
    .join(', ');

if (import.meta.url === `file://${process.argv[1]}`) {
  const { launchBrowser } = await import('../e2e/browser');
  const browser = await launchBrowser();
  try {
    for (const url of process.argv.slice(2)) {
      const t = await traceLoad(browser, url);
      console.log(
        `${url}: ${t.longTasks.length} long tasks, blocking ${t.blocking.toFixed(0)} ms, ready ${t.ready.toFixed(0)} ms`,
      );
      const all: Record<string, number> = {};
      for (const task of t.longTasks) for (const [k, v] of Object.entries(task.functions)) all[k] = (all[k] ?? 0) + v;
      console.log(`  all long tasks' functions: ${top(all, 25)}`);
      for (const task of t.longTasks) {
        console.log(`  at ${task.start.toFixed(0)} ms: ${task.duration.toFixed(0)} ms`);
        console.log(`    parts: ${top(task.parts, 6)}`);
        console.log(`    functions: ${top(task.functions, 8)}`);
      }
    }
  } finally {
    await browser.close();
  }
}
