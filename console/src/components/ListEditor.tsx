/**
 * An editable list of entries, each in its own fieldset with Move up, Move down and Remove, and an Add button. After a
 * move, focus follows the moved entry, so a keyboard user can keep moving it.
 */
import { useEffect, useState, type ReactNode } from 'react';

interface Props<T> {
  id: string;
  legend: string;
  /** What one entry is called ("key feature", "FAQ"), in its legend and the buttons' names. */
  noun: string;
  items: T[];
  blank: T;
  onChange: (items: T[]) => void;
  /** A reason for the list as a whole (too many entries). */
  error?: string;
  children: (item: T, index: number, set: (item: T) => void) => ReactNode;
}

export function ListEditor<T>({ id, legend, noun, items, blank, onChange, error, children }: Props<T>) {
  const title = noun.charAt(0).toUpperCase() + noun.slice(1);
  const [focus, setFocus] = useState<string | null>(null);
  useEffect(() => {
    if (focus) document.getElementById(focus)?.focus();
    setFocus(null);
  }, [focus]);

  const move = (from: number, to: number) => {
    const next = [...items];
    [next[from], next[to]] = [next[to]!, next[from]!];
    onChange(next);
    // At either end the pressed direction is disabled: focus the other one.
    const edge = to === 0 || to === items.length - 1;
    setFocus(`${id}-${to}-${edge ? (to === 0 ? 'down' : 'up') : to < from ? 'up' : 'down'}`);
  };
  const remove = (at: number) => {
    onChange(items.filter((_, j) => j !== at));
    setFocus(items.length > 1 ? `${id}-${Math.min(at, items.length - 2)}-remove` : `${id}-add`);
  };

  return (
    <fieldset aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{legend}</legend>
      {error && (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      )}
      {items.length === 0 && <p className="muted">None.</p>}
      {items.map((item, i) => (
        <fieldset key={i}>
          <legend>
            {title} {i + 1}
          </legend>
          {children(item, i, (next) => onChange(items.map((x, j) => (j === i ? next : x))))}
          <div className="button-row">
            <button
              id={`${id}-${i}-up`}
              type="button"
              className="btn"
              disabled={i === 0}
              aria-label={`Move ${noun} ${i + 1} up`}
              onClick={() => move(i, i - 1)}
            >
              Move up
            </button>
            <button
              id={`${id}-${i}-down`}
              type="button"
              className="btn"
              disabled={i === items.length - 1}
              aria-label={`Move ${noun} ${i + 1} down`}
              onClick={() => move(i, i + 1)}
            >
              Move down
            </button>
            <button
              id={`${id}-${i}-remove`}
              type="button"
              className="btn btn--danger"
              aria-label={`Remove ${noun} ${i + 1}`}
              onClick={() => remove(i)}
            >
              Remove
            </button>
          </div>
        </fieldset>
      ))}
      <button id={`${id}-add`} type="button" className="btn" onClick={() => onChange([...items, blank])}>
        Add {noun}
      </button>
    </fieldset>
  );
}
