/**
 * A circuit breaker per key (a remote's release): after `failures` consecutive failures or timeouts of its server
 * render, the server stops waiting on it for `coolDownMs` (its routes are served at once, not rendered on the
 * server, and the browser renders them); then one request tries again (half-open): success closes the breaker,
 * failure opens it for another cool-down.
 */
export interface BreakerOptions {
  failures: number;
  coolDownMs: number;
  now?: () => number;
  /** Told when a breaker opens or closes again (for the log). */
  onChange?: (key: string, state: 'open' | 'closed') => void;
}

export interface Breaker {
  /** Whether to try the server render now. In half-open state only one caller at a time is let through. */
  allow(key: string): boolean;
  success(key: string): void;
  failure(key: string): void;
  state(key: string): 'closed' | 'open' | 'half-open';
}

interface Entry {
  failures: number;
  openedAt: number | null;
  trial: boolean;
}

export function createBreaker({ failures, coolDownMs, now = Date.now, onChange }: BreakerOptions): Breaker {
  const entries = new Map<string, Entry>();
  const get = (key: string) => {
    let e = entries.get(key);
    if (!e) entries.set(key, (e = { failures: 0, openedAt: null, trial: false }));
    return e;
  };
  const state = (e: Entry): 'closed' | 'open' | 'half-open' =>
    e.openedAt === null ? 'closed' : now() - e.openedAt < coolDownMs ? 'open' : 'half-open';
  return {
    allow(key) {
      const e = get(key);
      const s = state(e);
      if (s === 'closed') return true;
      if (s === 'open' || e.trial) return false;
      e.trial = true;
      return true;
    },
    success(key) {
      const e = get(key);
      const wasOpen = e.openedAt !== null;
      entries.set(key, { failures: 0, openedAt: null, trial: false });
      if (wasOpen) onChange?.(key, 'closed');
    },
    failure(key) {
      const e = get(key);
      e.trial = false;
      e.failures++;
      if (e.openedAt !== null || e.failures >= failures) {
        e.openedAt = now();
        onChange?.(key, 'open');
      }
    },
    state: (key) => state(get(key)),
  };
}
