import { useTheme } from './ThemeProvider';

/** Toggle (manual mode) and "Auto" (back to time-based). Both icons are in the markup; CSS shows the right one
 *  from <html data-theme>, so the button is right even before hydration. */
export function ThemeControls() {
  const { theme, manual, toggleTheme, enableAutoMode } = useTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <div className="theme-controls">
      <button
        type="button"
        className="icon-btn theme-toggle"
        onClick={toggleTheme}
        aria-label={`Switch to ${next} mode`}
        title={`Switch to ${next} mode`}
      >
        <span className="theme-toggle__icon theme-toggle__icon--sun" aria-hidden="true">
          ☀
        </span>
        <span className="theme-toggle__icon theme-toggle__icon--moon" aria-hidden="true">
          ☾
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
