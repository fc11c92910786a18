import { act, fireEvent, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ThemeProvider, useTheme } from './ThemeProvider';
import { ThemeControls } from './ThemeControls';
import { themeBootScript } from './themeRules';

function setup(now: () => Date) {
  return render(
    <ThemeProvider now={now}>
      <ThemeControls />
    </ThemeProvider>,
  );
}

// The site's own stylesheet (the test runner stubs CSS imports): it decides which face of the toggle, and so which
// name, is shown.
beforeAll(() => {
  const style = document.createElement('style');
  style.textContent = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../styles/global.css'), 'utf8');
  document.head.append(style);
});
beforeEach(() => {
  window.matchMedia = vi.fn().mockReturnValue({ matches: false }) as unknown as typeof window.matchMedia;
});
afterEach(() => {
  vi.useRealTimers();
});

describe('ThemeProvider', () => {
  it('starts from the clock in auto mode and toggles into manual mode, saving the choice', () => {
    setup(() => new Date(2026, 10, 23, 12));
    expect(document.documentElement.dataset.theme).toBe('light');
    fireEvent.click(screen.getByRole('button', { name: 'Switch to dark mode' }));
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(localStorage.getItem('themeManual')).toBe('true');
    expect(screen.getByRole('button', { name: 'Switch to light mode' })).toBeTruthy();
  });

  it('restores a saved manual choice even at night', () => {
    localStorage.setItem('theme', 'light');
    localStorage.setItem('themeManual', 'true');
    setup(() => new Date(2026, 10, 23, 23));
    expect(document.documentElement.dataset.theme).toBe('light');
  });

  it('"Auto theme" clears the manual flag and applies the time-based theme', () => {
    localStorage.setItem('theme', 'light');
    localStorage.setItem('themeManual', 'true');
    setup(() => new Date(2026, 10, 23, 21));
    fireEvent.click(screen.getByRole('button', { name: 'Auto theme' }));
    expect(localStorage.getItem('themeManual')).toBe('false');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(screen.queryByRole('button', { name: 'Auto theme' })).toBeNull();
  });

  it('rechecks the clock every 60 s in auto mode', () => {
    vi.useFakeTimers();
    let hour = 18;
    setup(() => new Date(2026, 10, 23, hour, 59));
    expect(document.documentElement.dataset.theme).toBe('light');
    hour = 19;
    act(() => {
      vi.advanceTimersByTime(59_999);
    });
    expect(document.documentElement.dataset.theme).toBe('light');
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(document.documentElement.dataset.theme).toBe('dark');
  });

  it('a dark-preferring visitor in auto mode sees dark at every hour: first paint, hydration and each recheck', () => {
    vi.useFakeTimers();
    window.matchMedia = vi.fn().mockReturnValue({ matches: true }) as unknown as typeof window.matchMedia;
    for (let hour = 0; hour < 24; hour++) {
      vi.setSystemTime(new Date(2026, 10, 23, hour, 59, 30));
      delete document.documentElement.dataset.theme;
      new Function(themeBootScript())();
      const seen = [document.documentElement.dataset.theme];
      const view = setup(() => new Date());
      seen.push(document.documentElement.dataset.theme);
      act(() => {
        vi.advanceTimersByTime(60_000);
      });
      seen.push(document.documentElement.dataset.theme);
      expect(seen, `at ${hour}:59`).toEqual(['dark', 'dark', 'dark']);
      view.unmount();
    }
  });

  it('a light-preferring visitor: the recheck applies the same rule as the first paint', () => {
    vi.useFakeTimers();
    for (const hour of [6, 12, 18]) {
      vi.setSystemTime(new Date(2026, 10, 23, hour, 59, 30));
      new Function(themeBootScript())();
      const first = document.documentElement.dataset.theme;
      const view = setup(() => new Date());
      expect(document.documentElement.dataset.theme).toBe(first);
      act(() => {
        vi.advanceTimersByTime(60_000);
      });
      // One minute later the clock reads hour+1:00: 07:00 turns light, 19:00 turns dark, noon stays light.
      expect(document.documentElement.dataset.theme).toBe({ 6: 'light', 12: 'light', 18: 'dark' }[hour]);
      view.unmount();
    }
  });

  it('useTheme outside its provider throws its documented message', () => {
    const Orphan = () => {
      useTheme();
      return null;
    };
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<Orphan />)).toThrow('useTheme must be used within a ThemeProvider');
  });

  it('only warns when storage fails', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const setItem = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new Error('quota');
    });
    setup(() => new Date(2026, 10, 23, 12));
    fireEvent.click(screen.getByRole('button', { name: 'Switch to dark mode' }));
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(warn).toHaveBeenCalled();
    setItem.mockRestore();
  });
});

describe("the theme toggle's name in the server's HTML, before hydration", () => {
  it.each([
    ['light', 'Switch to dark mode'],
    ['dark', 'Switch to light mode'],
  ])('with the head script having applied %s, it says "%s"', (theme, name) => {
    document.documentElement.dataset.theme = theme;
    // The server renders before anything is known of the browser: its provider state is light, not manual.
    document.body.innerHTML = renderToString(
      <ThemeProvider now={() => new Date(2026, 10, 23, 12)}>
        <ThemeControls />
      </ThemeProvider>,
    );
    try {
      expect(screen.getByRole('button').textContent).toContain(name);
      expect(screen.getByRole('button', { name })).toBeTruthy();
    } finally {
      document.body.innerHTML = '';
    }
  });
});

describe('ThemeProvider before it has read the browser state', () => {
  it('never touches the theme the head script applied', () => {
    document.documentElement.dataset.theme = 'dark';
    const seen: string[] = [];
    const observer = new MutationObserver(() => seen.push(document.documentElement.dataset.theme ?? ''));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    localStorage.setItem('theme', 'dark');
    localStorage.setItem('themeManual', 'true');
    setup(() => new Date(2026, 10, 23, 12));
    return new Promise<void>((resolve) => {
      setTimeout(() => {
        observer.disconnect();
        expect(seen.every((t) => t === 'dark')).toBe(true);
        expect(document.documentElement.dataset.theme).toBe('dark');
        resolve();
      }, 0);
    });
  });
});
