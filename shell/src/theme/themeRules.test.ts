import { describe, expect, it } from 'vitest';
import { autoTheme, resolveTheme, themeBootScript, THEME_RECHECK_MS } from './themeRules';

const at = (h: number, m = 0) => new Date(2026, 10, 23, h, m);
/** Night: the automatic theme is dark even without a system preference for it. */
const isNight = (date: Date) => autoTheme(date, false) === 'dark';

describe('time rules', () => {
  it('is night from 19:00 to 06:59', () => {
    expect(isNight(at(18, 59))).toBe(false);
    expect(isNight(at(19, 0))).toBe(true);
    expect(isNight(at(23, 59))).toBe(true);
    expect(isNight(at(0, 0))).toBe(true);
    expect(isNight(at(6, 59))).toBe(true);
    expect(isNight(at(7, 0))).toBe(false);
    expect(autoTheme(at(12), false)).toBe('light');
    expect(autoTheme(at(21), false)).toBe('dark');
  });

  it('rechecks every 60 seconds', () => {
    expect(THEME_RECHECK_MS).toBe(60_000);
  });
});

describe('initial theme', () => {
  it('uses the saved choice when the manual flag is true', () => {
    expect(resolveTheme('light', 'true', 22, true)).toBe('light');
    expect(resolveTheme('dark', 'true', 12, false)).toBe('dark');
  });

  it('ignores a saved theme without the manual flag, or a bad saved value', () => {
    expect(resolveTheme('light', 'false', 22, false)).toBe('dark');
    expect(resolveTheme('light', null, 22, false)).toBe('dark');
    expect(resolveTheme('purple', 'true', 12, false)).toBe('light');
  });

  it('is dark at night, else follows the system preference', () => {
    expect(resolveTheme(null, null, 3, false)).toBe('dark');
    expect(resolveTheme(null, null, 12, true)).toBe('dark');
    expect(resolveTheme(null, null, 12, false)).toBe('light');
  });
});

describe('boot script', () => {
  function run(storage: Record<string, string> | 'throws', hour: number, prefersDark: boolean) {
    const root = { dataset: {} as Record<string, string>, style: {} as Record<string, string> };
    const RealDate = Date;
    const fake = {
      localStorage: {
        getItem: (k: string) => {
          if (storage === 'throws') throw new Error('storage disabled');
          return storage[k] ?? null;
        },
      },
      matchMedia: () => ({ matches: prefersDark }),
      document: { documentElement: root },
      Date: class extends RealDate {
        override getHours() {
          return hour;
        }
      },
    };
    new Function('localStorage', 'matchMedia', 'document', 'Date', themeBootScript())(
      fake.localStorage,
      fake.matchMedia,
      fake.document,
      fake.Date,
    );
    return root.dataset.theme;
  }

  it('applies the same rules before the app loads', () => {
    expect(run({ theme: 'light', themeManual: 'true' }, 22, true)).toBe('light');
    expect(run({}, 22, false)).toBe('dark');
    expect(run({}, 10, true)).toBe('dark');
    expect(run({}, 10, false)).toBe('light');
  });

  it('falls back to "nothing saved" when storage fails, still honouring the system preference', () => {
    expect(run('throws', 10, true)).toBe('dark');
    expect(run('throws', 10, false)).toBe('light');
  });

  it('agrees with autoTheme at every hour, for both system preferences (one rule)', () => {
    for (let hour = 0; hour < 24; hour++) {
      for (const dark of [true, false]) expect(run({}, hour, dark)).toBe(autoTheme(at(hour), dark));
      expect(run({}, hour, true)).toBe('dark');
    }
  });
});
