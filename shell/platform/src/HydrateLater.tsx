import { Suspense, use, useEffect, useId, useRef, useState, type ReactElement, type ReactNode } from 'react';
import { globalSingleton } from './singleton';
import { useHydrating } from './hydration';

/** The parts waiting to hydrate, in page order, and their turns (one per page, whichever bundle asks). */
interface Turns {
  queue: (() => void)[];
  promises: Map<string, Promise<void>>;
  listening: boolean;
}
const turns = globalSingleton<Turns>('hydrate-later', () => ({ queue: [], promises: new Map(), listening: false }));

/** Input anywhere, or a focus: every waiting part hydrates now, before React handles that event (these listeners
 *  run first), so a click on a part still waiting hydrates it and reaches its handler. */
const INPUT_EVENTS = ['pointerdown', 'touchstart', 'keydown', 'focusin', 'click'] as const;

function releaseAll() {
  while (turns.queue.length) turns.queue.shift()!();
}

/** One part per idle period (each its own task and commit), or a new task where idle callbacks are missing. */
function scheduleNext() {
  const next = () => {
    turns.queue.shift()?.();
    if (turns.queue.length) scheduleNext();
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(next, { timeout: 1000 });
  else setTimeout(next, 0);
}

/** This part's turn: a promise per part (by its React id, the same at every retry of its hydration). */
function turnOf(id: string): Promise<void> {
  let promise = turns.promises.get(id);
  if (!promise) {
    const p: Promise<void> & { status?: string; value?: undefined } = new Promise<void>((resolve) => {
      turns.queue.push(() => {
        // Marked settled at once, the way React's `use` reads a settled promise: a click on this part hydrates it
        // in the same task, before any microtask could tell React.
        p.status = 'fulfilled';
        p.value = undefined;
        resolve();
      });
      if (turns.queue.length === 1) scheduleNext();
    });
    promise = p;
    turns.promises.set(id, promise);
    if (!turns.listening) {
      turns.listening = true;
      for (const type of INPUT_EVENTS) addEventListener(type, releaseAll, { capture: true, passive: true });
    }
  }
  return promise;
}

function WaitForTurn({ children, onHydrated }: { children: ReactNode; onHydrated?: () => void }) {
  const id = useId();
  // Only while hydrating: the server renders the part, and so does any later render in the browser.
  if (useHydrating()) {
    use(turnOf(id));
    // Its turn came: done with it (a render React throws away and retries waits for one more turn).
    turns.promises.delete(id);
  }
  useEffect(() => onHydrated?.(), [onHydrated]);
  return children;
}

/**
 * A part of a server-rendered page that is hydrated after the rest, on its own (docs/performance.md, "Phones"):
 * React keeps its server HTML meanwhile (a Suspense boundary that waits), then hydrates it when the browser is idle,
 * one part per idle period, or at once when the visitor presses, types or focuses anything. Its links and forms
 * work as HTML before. For parts below the fold or secondary to the page's first use.
 */
export function HydrateLater({ children }: { children: ReactNode }) {
  const [waiting, setWaiting] = useState(useHydrating());
  const first = useRef<ReactElement | null>(null);
  if (!waiting)
    return (
      <Suspense fallback={null}>
        <WaitForTurn>{children}</WaitForTurn>
      </Suspense>
    );
  // Until its part has hydrated, the same element at every render: an update of the page around it passes it by.
  // New props there would make React drop the part's server HTML and render it again in the browser (new nodes,
  // new lazy images). Once hydrated, it renders what it is given now.
  first.current ??= (
    <Suspense fallback={null}>
      <WaitForTurn onHydrated={() => setWaiting(false)}>{children}</WaitForTurn>
    </Suspense>
  );
  return first.current;
}
