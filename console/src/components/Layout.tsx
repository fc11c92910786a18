/** The frame of every signed-in screen: skip link, the sections the person's roles open, sign-out. */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { NavLink, useLocation, useNavigate } from 'react-router-dom';
import { api, errorText } from '../api';
import { can, roleLabel } from '../roles';
import { usePerson, useSession } from '../session';
import type { Person } from '../types';
import { ErrorNote } from './Status';

interface Section {
  to: string;
  label: string;
  shown(person: Person): boolean;
}

export const SECTIONS: Section[] = [
  { to: '/', label: 'Dashboard', shown: () => true },
  { to: '/submissions', label: 'Submissions', shown: can.readModeration },
  { to: '/inbox', label: 'Inbox', shown: can.readModeration },
  { to: '/checks', label: 'Checks', shown: can.readModeration },
  { to: '/releases', label: 'Releases', shown: () => true },
  { to: '/registry', label: 'Registry', shown: can.runJobs },
  { to: '/tokens', label: 'Tokens', shown: can.admin },
  { to: '/upstreams', label: 'Upstreams', shown: can.admin },
  { to: '/people', label: 'People', shown: can.admin },
  { to: '/audit', label: 'Audit log', shown: can.admin },
  { to: '/passkeys', label: 'My passkeys', shown: () => true },
];

/** The editors' area (the site's posts and tools): a group of its own beside the sections, for the editor role. */
export const CONTENT_SECTIONS: Section[] = [
  { to: '/posts', label: 'Posts', shown: can.edit },
  { to: '/tools', label: 'Tools', shown: can.edit },
  { to: '/taxonomy', label: 'Categories and tags', shown: can.edit },
];

function SectionLinks({ label, sections, person }: { label: string; sections: Section[]; person: Person }) {
  const shown = sections.filter((s) => s.shown(person));
  if (!shown.length) return null;
  return (
    <nav aria-label={label}>
      <ul className="top-nav">
        {shown.map((s) => (
          <li key={s.to}>
            <NavLink to={s.to} end={s.to === '/'} className="top-nav__link">
              {s.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const person = usePerson();
  const { setPerson } = useSession();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const { pathname } = useLocation();
  const main = useRef<HTMLElement>(null);
  const shown = useRef(pathname);
  // After a move to another section, focus goes to its content (as after a page load), so a screen reader reads it.
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    main.current?.focus();
  }, [pathname]);
  const signOut = async (everywhere: boolean) => {
    try {
      await api.post(everywhere ? '/api/auth/logout-everywhere' : '/api/auth/logout');
      setPerson(null);
      navigate('/sign-in');
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top-bar">
        <span className="top-bar__brand">AI Tools · Console</span>
        <SectionLinks label="Sections" sections={SECTIONS} person={person} />
        <SectionLinks label="Content" sections={CONTENT_SECTIONS} person={person} />
        <div className="top-bar__end">
          <span className="muted" title={person.roles.map(roleLabel).join(', ')}>
            {person.name}
          </span>
          <button type="button" className="btn" onClick={() => void signOut(false)}>
            Sign out
          </button>
          <button type="button" className="btn" onClick={() => void signOut(true)}>
            Sign out everywhere
          </button>
        </div>
      </header>
      <main id="main" className="container" tabIndex={-1} ref={main}>
        <ErrorNote>{error}</ErrorNote>
        {children}
      </main>
    </div>
  );
}
