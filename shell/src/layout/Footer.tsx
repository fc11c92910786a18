import { Link } from 'react-router-dom';
import { SocialLinks, SITE_NAME } from '@aitools/platform';

const FOOTER_LINKS = [
  { to: '/', label: 'Home' },
  { to: '/blog', label: 'Blog' },
  { to: '/advertise', label: 'Advertise Your Tool' },
  { to: '/submit', label: 'Submit Tool' },
  { to: '/privacy', label: 'Privacy Policy' },
  { to: '/terms', label: 'Terms of Service' },
  { to: '/cookies', label: 'Cookie Policy' },
  { to: '/contact', label: 'Contact Us' },
];

export function Footer() {
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <nav aria-label="Footer">
          <ul className="site-footer__links">
            {FOOTER_LINKS.map((l) => (
              <li key={l.to}>
                <Link to={l.to} className="quiet-link">
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <SocialLinks className="site-footer__social" label="Social media" />
        <p className="site-footer__copy">© 2025 {SITE_NAME}. All rights reserved.</p>
      </div>
    </footer>
  );
}
