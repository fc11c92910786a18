import { describe, expect, it } from 'vitest';
import { resolveApiUrl } from './config';

describe('resolveApiUrl (SPEC section 6)', () => {
  it('uses the same origin by default', () => {
    expect(resolveApiUrl('/api/tools', { apiBase: '' })).toBe('/api/tools');
  });
  it('uses a configured API base', () => {
    expect(resolveApiUrl('/api/tools', { apiBase: 'https://api.example.com/' })).toBe(
      'https://api.example.com/api/tools',
    );
  });
  it('sends auth, admin and contact paths to the development server when one is configured', () => {
    const cfg = { apiBase: 'https://api.example.com', devAuthServer: 'http://localhost:5001' };
    expect(resolveApiUrl('/api/auth/login', cfg)).toBe('http://localhost:5001/api/auth/login');
    expect(resolveApiUrl('/api/admin', cfg)).toBe('http://localhost:5001/api/admin');
    expect(resolveApiUrl('/api/contact/submit', cfg)).toBe('http://localhost:5001/api/contact/submit');
    expect(resolveApiUrl('/api/contactless', cfg)).toBe('https://api.example.com/api/contactless');
    expect(resolveApiUrl('/api/tools', cfg)).toBe('https://api.example.com/api/tools');
  });
});
