import { describe, expect, it } from 'vitest';
import { CODE_BACKSTOP_MS, PAGE_CODE_ID, pageCodeBootScript } from './pageCode';

const FILES = [
  '/assets/index-a.js',
  '/remotes/directory/1/remoteEntry.js',
  '/remotes/directory/1/__federation_expose_Home-b.js',
];

/** Runs the inline boot script against a fake page: its document, paint timing, frames and timers. */
function boot({ paintTiming = true, readyState = 'interactive' } = {}) {
  const added: Array<{ tag: string; type?: string; src?: string; rel?: string; href?: string }> = [];
  const listeners = new Map<string, () => void>();
  const timers: Array<{ fn: () => void; ms: number }> = [];
  const frames: Array<() => void> = [];
  let onPaint:
    ((entries: { getEntriesByName(name: string): unknown[] }, observer: { disconnect(): void }) => void) | undefined;
  let disconnected = false;
  const document = {
    readyState,
    head: { appendChild: (el: (typeof added)[number]) => added.push(el) },
    getElementById: (id: string) => (id === PAGE_CODE_ID ? { textContent: JSON.stringify(FILES) } : null),
    createElement: (tag: string) => ({ tag }),
    addEventListener: (type: string, fn: () => void) => listeners.set(type, fn),
  };
  class FakeObserver {
    static supportedEntryTypes = paintTiming ? ['paint', 'largest-contentful-paint'] : ['navigation'];
    constructor(cb: typeof onPaint) {
      onPaint = cb;
    }
    observe(opts: { type: string; buffered: boolean }) {
      expect(opts).toEqual({ type: 'paint', buffered: true });
    }
    disconnect() {
      disconnected = true;
    }
  }
  new Function('document', 'PerformanceObserver', 'requestAnimationFrame', 'setTimeout', pageCodeBootScript())(
    document,
    FakeObserver,
    (fn: () => void) => frames.push(fn),
    (fn: () => void, ms: number) => timers.push({ fn, ms }),
  );
  const paint = (name: string) =>
    onPaint?.({ getEntriesByName: (n) => (n === name ? [{ name }] : []) }, { disconnect: () => (disconnected = true) });
  return { added, listeners, timers, frames, paint, document, disconnected: () => disconnected };
}

describe('the page code boot script', () => {
  it('adds nothing before the first contentful paint, then the entry and the modules to preload, once', () => {
    const page = boot();
    expect(page.added).toEqual([]);
    page.paint('first-paint');
    expect(page.added).toEqual([]);
    page.paint('first-contentful-paint');
    expect(page.added).toEqual([
      { tag: 'script', type: 'module', src: FILES[0] },
      { tag: 'link', rel: 'modulepreload', href: FILES[1] },
      { tag: 'link', rel: 'modulepreload', href: FILES[2] },
    ]);
    expect(page.disconnected()).toBe(true);
    // The backstop timer, when it fires later, adds nothing more.
    page.timers.forEach((t) => t.fn());
    expect(page.added).toHaveLength(3);
  });

  it('never starts the code before the page and its state are parsed', () => {
    const page = boot({ readyState: 'loading' });
    page.paint('first-contentful-paint');
    expect(page.added).toEqual([]);
    page.document.readyState = 'interactive';
    page.listeners.get('DOMContentLoaded')!();
    expect(page.added).toHaveLength(3);
  });

  it('without paint timing, starts after the first frame', () => {
    const page = boot({ paintTiming: false });
    expect(page.added).toEqual([]);
    page.frames.forEach((f) => f());
    expect(page.added).toEqual([]);
    page.timers.filter((t) => t.ms === 0).forEach((t) => t.fn());
    expect(page.added).toHaveLength(3);
  });

  it(`starts after ${CODE_BACKSTOP_MS} ms when no paint is reported (a tab opened in the background)`, () => {
    expect(CODE_BACKSTOP_MS).toBe(3000);
    const page = boot();
    const backstop = page.timers.find((t) => t.ms === CODE_BACKSTOP_MS)!;
    expect(page.added).toEqual([]);
    backstop.fn();
    expect(page.added).toHaveLength(3);
  });
});
