/**
 * The page's code starts after its first paint. The server's HTML is the page (HTML first): nothing in it waits
 * for code. So the browser first paints what it has, then fetches the shell's entry and the route's modules in one
 * wave (the list is in a JSON element the server writes, `PAGE_CODE_ID`). On a slow phone the first paint no
 * longer shares the network and the main thread with 100+ kB of modules, and Lighthouse's simulation no longer
 * counts those modules as needed for the largest paint (they finished before it on a fast machine).
 * Hydration is unchanged: what a visitor typed or clicked before the code ran is read when it runs.
 */
export const PAGE_CODE_ID = '__PAGE_CODE__';
/** The code starts by then even if no paint was reported (a background tab). */
export const CODE_BACKSTOP_MS = 3000;

/**
 * Self-contained (its source is inlined into the page, allowed by the CSP by its hash): reads the list (the entry
 * first, then modules to preload) and adds the elements once the page has painted: at first-contentful-paint, or
 * where paint timing is missing, after the first frame; at the latest after CODE_BACKSTOP_MS.
 */
function startPageCode(id: string, backstopMs: number) {
  let started = false;
  function start() {
    if (started) return;
    // An inserted module runs as soon as it arrives: never before the page (and its state) is parsed.
    if (document.readyState === 'loading') return void document.addEventListener('DOMContentLoaded', start);
    started = true;
    const list = document.getElementById(id);
    const files: string[] = list && list.textContent ? JSON.parse(list.textContent) : [];
    for (let i = 0; i < files.length; i++) {
      let el: HTMLScriptElement | HTMLLinkElement;
      if (i === 0) {
        el = document.createElement('script');
        el.type = 'module';
        el.src = files[i]!;
      } else {
        el = document.createElement('link');
        el.rel = 'modulepreload';
        el.href = files[i]!;
      }
      document.head.appendChild(el);
    }
  }
  const types = typeof PerformanceObserver === 'function' ? PerformanceObserver.supportedEntryTypes || [] : [];
  if (types.indexOf('paint') >= 0) {
    new PerformanceObserver(function (entries, observer) {
      if (entries.getEntriesByName('first-contentful-paint').length) {
        observer.disconnect();
        start();
      }
    }).observe({ type: 'paint', buffered: true });
  } else {
    requestAnimationFrame(function () {
      setTimeout(start, 0);
    });
  }
  // A tab opened in the background paints only when shown; its code still starts.
  setTimeout(start, backstopMs);
}

/** The inline script that starts the page's code after its first paint. */
export function pageCodeBootScript(): string {
  return `(${startPageCode.toString()})(${JSON.stringify(PAGE_CODE_ID)},${CODE_BACKSTOP_MS})`;
}
