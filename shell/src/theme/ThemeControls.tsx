import { useTheme } from './ThemeProvider';

/**
 * Toggle (manual mode) and "Auto" (back to time-based). Both faces of the toggle, each an icon and the words it
 * stands for, are in the markup; CSS shows the one that matches <html data-theme> and hides the other from the
 * accessibility tree too (display: none), so the button's name is right from the server's HTML on, before
 * hydration, in either theme.
 */
export function ThemeControls() {
  const { manual, toggleTheme, enableAutoMode } = useTheme();
  return (
    <div className="theme-controls">
      <button type="button" className="icon-btn theme-toggle" onClick={toggleTheme}>
        <span className="theme-toggle__icon theme-toggle__icon--sun">
          <span aria-hidden="true">☀</span>
          <span className="visually-hidden">Switch to dark mode</span>
        </span>
        <span className="theme-toggle__icon theme-toggle__icon--moon">
          <span aria-hidden="true">☾</span>
          <span className="visually-hidden">Switch to light mode</span>
        </span>
      </button>
      {manual && (
        <button type="button" className="btn btn--ghost btn--small" onClick={enableAutoMode}>
          Auto theme
        </button>
      )}
    </div>
  );
}
