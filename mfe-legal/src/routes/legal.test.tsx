import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import PrivacyRoute from './Privacy';
import TermsRoute from './Terms';
import CookiesRoute from './Cookies';

const [Privacy, Terms, Cookies] = [PrivacyRoute, TermsRoute, CookiesRoute].map((r) => () => (
  <r.Component data={null} />
));
const page = (ui: React.ReactNode) => render(<MemoryRouter>{ui}</MemoryRouter>);
const today = new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });

describe('legal pages', () => {
  it.each([
    ['Privacy Policy', Privacy],
    ['Terms of Service', Terms],
    ['Cookie Policy', Cookies],
  ])('%s: title, "Last updated" today, a link home, its head', (title, Page) => {
    page(<Page />);
    expect(screen.getByRole('heading', { level: 1, name: title })).toBeTruthy();
    expect(screen.getByText(`Last updated: ${today}`)).toBeTruthy();
    expect(screen.getByRole('link', { name: '← Back to Home' }).getAttribute('href')).toBe('/');
    const route = { 'Privacy Policy': PrivacyRoute, 'Terms of Service': TermsRoute, 'Cookie Policy': CookiesRoute }[
      title
    ]!;
    const head = route.head!({ data: null, url: new URL('https://x/'), params: {} });
    expect(head.title).toBe(`${title} | AI Tools Directory`);
    expect(head.robots).toBe('index,follow');
    expect(head.canonical).toMatch(/^https:\/\/.+\/(privacy|terms|cookies)$/);
  });

  it('privacy lists every statement of the spec', () => {
    page(<Privacy />);
    const text = document.body.textContent ?? '';
    for (const s of ['cookieless', 'anonymized', 'processed in the EU', 'cross-site tracking', 'children under 13'])
      expect(text).toContain(s);
    for (const item of [
      'Browser',
      'Operating system',
      'Anonymized IP address',
      'Pages visited',
      'Time of visit',
      'Referrer',
      'Device type',
      'Country',
    ]) {
      expect(screen.getByText(item)).toBeTruthy();
    }
    for (const right of ['know', 'deleted', 'object', 'portability']) expect(text).toContain(right);
  });

  it('terms cover license, disclaimer, conduct, termination and liability, and link to /contact', () => {
    page(<Terms />);
    for (const h of ['License', 'Disclaimer', 'Conduct', 'Termination', 'Limitation of liability'])
      expect(screen.getByRole('heading', { name: h })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Contact us' }).getAttribute('href')).toBe('/contact');
  });

  it('cookies says the site is cookieless', () => {
    page(<Cookies />);
    expect(document.body.textContent).toContain('This site is cookieless');
  });
});
