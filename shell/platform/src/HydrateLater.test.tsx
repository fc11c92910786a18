import { act, useState, useSyncExternalStore } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { HeadContext } from './head';
import { HydrateLater } from './HydrateLater';

function Counter({ label }: { label: string }) {
  const [n, setN] = useState(0);
  return (
    <button type="button" onClick={() => setN(n + 1)}>
      {label} {n}
    </button>
  );
}

const page = (
  <main>
    <Counter label="now" />
    <HydrateLater>
      <Counter label="later" />
    </HydrateLater>
  </main>
);

/** The page as the server sends it (the shell's server render gives a head collector), then hydrated. */
async function hydrated() {
  const container = document.createElement('div');
  container.innerHTML = renderToString(<HeadContext.Provider value={{ head: null }}>{page}</HeadContext.Provider>);
  document.body.appendChild(container);
  const errors: unknown[] = [];
  await act(async () => void hydrateRoot(container, page, { onRecoverableError: (e) => errors.push(e) }));
  const [now, later] = [...container.querySelectorAll('button')];
  return { container, errors, now: now!, later: later! };
}

afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
});

describe('HydrateLater', () => {
  it('renders its part on the server, and in the browser outside hydration', () => {
    expect(renderToString(<HeadContext.Provider value={{ head: null }}>{page}</HeadContext.Provider>)).toContain(
      'later',
    );
  });

  it('keeps the server HTML while the rest hydrates, then hydrates the part in a later task', async () => {
    vi.useFakeTimers();
    const { errors, now, later } = await hydrated();
    fireEvent.click(now);
    expect(now.textContent).toBe('now 1');
    // Not yet hydrated: React has no handler on it (the server's node, untouched).
    expect(Object.keys(later).some((k) => k.startsWith('__reactFiber'))).toBe(false);
    await act(async () => void vi.runAllTimers());
    expect(Object.keys(later).some((k) => k.startsWith('__reactFiber'))).toBe(true);
    fireEvent.click(later);
    expect(later.textContent).toBe('later 1');
    expect(errors).toEqual([]);
  });

  it('hydrates the part at once when the visitor clicks it first: the click is not lost', async () => {
    vi.useFakeTimers();
    const { errors, container } = await hydrated();
    const later = container.querySelectorAll('button')[1]!;
    await act(async () => void fireEvent.click(later));
    // The same server node, now hydrated, and the click reached its handler.
    expect(container.querySelectorAll('button')[1]).toBe(later);
    expect(later.textContent).toBe('later 1');
    expect(errors).toEqual([]);
  });

  it('keeps the server nodes of a waiting part when the page around it updates, and shows the update after its turn', async () => {
    vi.useFakeTimers();
    // A store outside React, as zustand is: its updates are not transitions.
    let count = 0;
    const listeners = new Set<() => void>();
    const subscribe = (listener: () => void) => (listeners.add(listener), () => void listeners.delete(listener));
    const bump = () => {
      count += 1;
      listeners.forEach((listener) => listener());
    };
    function Page() {
      const n = useSyncExternalStore(
        subscribe,
        () => count,
        () => count,
      );
      return (
        <main>
          <p>top {n}</p>
          <HydrateLater>
            <img src="/a.png" loading="lazy" alt="" />
            <p>part {n}</p>
          </HydrateLater>
        </main>
      );
    }
    const container = document.createElement('div');
    container.innerHTML = renderToString(
      <HeadContext.Provider value={{ head: null }}>
        <Page />
      </HeadContext.Provider>,
    );
    document.body.appendChild(container);
    const img = container.querySelector('img')!;
    const errors: unknown[] = [];
    await act(async () => void hydrateRoot(container, <Page />, { onRecoverableError: (e) => errors.push(e) }));
    // An update outside a transition, before the part's turn: React would render the part again in the browser.
    await act(async () => bump());
    expect(container.textContent).toBe('top 1part 0');
    await act(async () => void vi.runAllTimers());
    expect(container.querySelector('img')).toBe(img);
    expect(container.textContent).toBe('top 1part 1');
    expect(errors).toEqual([]);
  });
});
