import { Link } from 'react-router-dom';
import { SITE_NAME } from '@aitools/platform';
import { ThemeControls } from '../theme/ThemeControls';

export function TopBar() {
  return (
    <header className="top-bar">
      <a className="skip-link" href="#main-content">
        Skip to content
      </a>
      <Link to="/" className="top-bar__brand">
        {SITE_NAME}
      </Link>
      <ThemeControls />
    </header>
  );
}
