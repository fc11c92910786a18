/**
 * What a person typed and has not saved, kept in this browser (localStorage) until it is saved: a session that ends
 * while an editor holds unsaved text (signed out from another device, the idle limit) loses nothing. The key names
 * the person and the item, so the text is offered back to the same person, after they sign in again, and never to
 * another person's session on the same device.
 */
import { useCallback, useMemo } from 'react';
import { utc } from './format';
import { usePerson } from './session';

export interface Kept<T> {
  value: T;
  /** The version the text started from (a save of it names this version, so a newer one is never overwritten). */
  base: number;
  /** When it was last typed (ISO). */
  at: string;
}

const PREFIX = 'console-unsaved';

export const keptKey = (personId: number, item: string) => `${PREFIX}:${personId}:${item}`;

function read<T>(key: string): Kept<T> | null {
  try {
    const raw = localStorage.getItem(key);
    const kept = raw ? (JSON.parse(raw) as Kept<T>) : null;
    return kept && typeof kept === 'object' && 'value' in kept ? kept : null;
  } catch {
    return null;
  }
}

/**
 * The signed-in person's unsaved text of `item` ("post:hello", "tool:cursor"): what was kept when the screen opened,
 * `keep` on each change, `discard` once it is saved (or the person declines it).
 */
export function useKeptDraft<T>(item: string) {
  const { id } = usePerson();
  const key = keptKey(id, item);
  const kept = useMemo(() => read<T>(key), [key]);
  const keep = useCallback(
    (value: T, base: number) => {
      try {
        localStorage.setItem(key, JSON.stringify({ value, base, at: new Date().toISOString() } satisfies Kept<T>));
      } catch {
        // Storage full or refused: the text stays on the screen, as it did before.
      }
    },
    [key],
  );
  const discard = useCallback(() => {
    try {
      localStorage.removeItem(key);
    } catch {
      // Nothing kept.
    }
  }, [key]);
  return { kept, keep, discard };
}

/** The offer of kept text, above the form it belongs to. */
export function KeptDraftOffer({
  kept,
  onRestore,
  onDiscard,
}: {
  kept: Kept<unknown>;
  onRestore(): void;
  onDiscard(): void;
}) {
  return (
    <div className="note" role="group" aria-labelledby="kept-draft-text">
      <p id="kept-draft-text">
        Changes you typed here at {utc(kept.at)}, starting from version {kept.base || 'none'}, were not saved (your
        session may have ended). They are kept on this device until you save them.
      </p>
      <button type="button" className="btn btn--primary" onClick={onRestore}>
        Restore my unsaved changes
      </button>
      <button type="button" className="btn" onClick={onDiscard}>
        Discard them
      </button>
    </div>
  );
}
