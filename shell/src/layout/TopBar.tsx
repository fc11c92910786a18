import { useEffect, useRef, type KeyboardEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { CONTENT_ID, SITE_NAME } from '@aitools/platform';
import { ThemeControls } from '../theme/ThemeControls';
import { currentSection, MAIN_SECTIONS } from './sections';

function SectionLinks({ pathname, search }: { pathname: string; search: string }) {
  const here = currentSection(pathname, search);
  return (
    <ul className="top-nav__list">
      {MAIN_SECTIONS.map((s) => (
        <li key={s.to}>
          <Link to={s.to} className="top-nav__link" aria-current={here?.to === s.to ? here.current : undefined}>
            {s.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/**
 * Brand, main sections and theme controls on one line. Wide screens show the sections inline; on a phone they sit
 * in a <details> menu, which opens with a click, Enter or Space even before the page's code has loaded. Only one
 * of the two is displayed at a time (CSS), so assistive technology meets the links once.
 */
export function TopBar() {
  const { pathname, search } = useLocation();
  const menu = useRef<HTMLDetailsElement>(null);
  // A followed link closes the menu.
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [pathname, search]);
  const closeOnEscape = (e: KeyboardEvent<HTMLDetailsElement>) => {
    if (e.key !== 'Escape' || !menu.current?.open) return;
    menu.current.open = false;
    menu.current.querySelector('summary')?.focus();
  };
  return (
    <header className="top-bar">
      <a className="skip-link" href={`#${CONTENT_ID}`}>
        Skip to content
      </a>
      <Link to="/" className="top-bar__brand">
        {SITE_NAME}
      </Link>
      <nav className="top-nav top-nav--inline" aria-label="Main">
        <SectionLinks pathname={pathname} search={search} />
      </nav>
      <div className="top-bar__end">
        <details className="top-menu" ref={menu} onKeyDown={closeOnEscape}>
          <summary className="top-menu__button">
            <span aria-hidden="true" className="top-menu__icon">
              ☰
            </span>
            Menu
          </summary>
          <nav className="top-nav top-menu__panel" aria-label="Main">
            <SectionLinks pathname={pathname} search={search} />
          </nav>
        </details>
        <ThemeControls />
      </div>
    </header>
  );
}
