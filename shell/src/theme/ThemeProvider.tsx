import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { readStorage, writeStorage } from '@aitools/platform';
import { autoTheme, MANUAL_KEY, resolveTheme, THEME_KEY, THEME_RECHECK_MS, type Theme } from './themeRules';

export interface ThemeContextValue {
  theme: Theme;
  /** true when the visitor picked the theme by hand (auto mode off). */
  manual: boolean;
  toggleTheme: () => void;
  enableAutoMode: () => void;
}

const ThemeContext = createContext<ThemeContextValue | null>(null);

function applyToDocument(theme: Theme) {
  document.documentElement.dataset.theme = theme;
  document.documentElement.style.colorScheme = theme;
}

/** The system preference, read exactly as the head script reads it (a failing media query is "no preference"). */
export function prefersDark(): boolean {
  try {
    return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
  } catch {
    return false;
  }
}

/** Server HTML does not know the theme; the head script has applied it already, and the first client render
 *  reads the same values as the server (light, not manual) so hydration matches, then syncs. */
const systemNow = () => new Date();

export function ThemeProvider({ children, now = systemNow }: { children: ReactNode; now?: () => Date }) {
  // `resolved` is false until the browser has read storage and the clock: until then the document keeps the
  // theme the head script applied, so hydration never flashes the other theme.
  const [state, setState] = useState<{ theme: Theme; manual: boolean; resolved: boolean }>({
    theme: 'light',
    manual: false,
    resolved: false,
  });

  useEffect(() => {
    const manual = readStorage(MANUAL_KEY) === 'true';
    const theme = resolveTheme(readStorage(THEME_KEY), readStorage(MANUAL_KEY), now().getHours(), prefersDark());
    setState({ theme, manual, resolved: true });
  }, [now]);

  useEffect(() => {
    if (state.resolved) applyToDocument(state.theme);
  }, [state.theme, state.resolved]);

  // Auto mode rechecks the one rule (themeRules.resolveTheme) every minute: clock and system preference.
  useEffect(() => {
    if (state.manual) return;
    const id = setInterval(() => {
      setState((s) => (s.manual ? s : { ...s, theme: autoTheme(now(), prefersDark()) }));
    }, THEME_RECHECK_MS);
    return () => clearInterval(id);
  }, [state.manual, now]);

  const toggleTheme = useCallback(() => {
    setState((s) => {
      const theme: Theme = s.theme === 'dark' ? 'light' : 'dark';
      writeStorage(THEME_KEY, theme);
      writeStorage(MANUAL_KEY, 'true');
      return { theme, manual: true, resolved: true };
    });
  }, []);

  const enableAutoMode = useCallback(() => {
    const theme = autoTheme(now(), prefersDark());
    writeStorage(MANUAL_KEY, 'false');
    writeStorage(THEME_KEY, theme);
    setState({ theme, manual: false, resolved: true });
  }, [now]);

  const value = useMemo(
    () => ({ theme: state.theme, manual: state.manual, toggleTheme, enableAutoMode }),
    [state.theme, state.manual, toggleTheme, enableAutoMode],
  );
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeContextValue {
  const ctx = useContext(ThemeContext);
  if (!ctx) throw new Error('useTheme must be used within a ThemeProvider');
  return ctx;
}
