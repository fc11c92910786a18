import { describe, expect, it } from 'vitest';
import {
  addressParts,
  createSignalTokens,
  ERRORS_PER_NETWORK,
  ERRORS_PER_VISITOR,
  REPORTS_PER_TOKEN,
  TOKEN_TTL_MS,
  VIEWS_PER_VISITOR,
} from './signalTokens';

describe('report tokens', () => {
  const tokens = createSignalTokens('test-secret');

  it('verify for the remote and release they were issued for, within their lifetime', () => {
    const now = Date.now();
    const page = tokens.issue({ blog: 'b2', legal: 'l1' }, now);
    expect(tokens.verify(page.blog, 'blog', 'b2', now)).toBeNull();
    expect(tokens.verify(page.legal, 'legal', 'l1', now + TOKEN_TTL_MS - 1000)).toBeNull();
    // One page, one nonce: the tokens differ per remote only by their MAC.
    expect(page.blog!.split('.')[1]).toBe(page.legal!.split('.')[1]);
    expect(tokens.issue({ blog: 'b2' }, now).blog).not.toBe(page.blog);
  });

  it('refuse a missing, foreign, tampered or expired token', () => {
    const now = Date.now();
    const { blog } = tokens.issue({ blog: 'b2' }, now) as { blog: string };
    expect(tokens.verify(undefined, 'blog', 'b2', now)).toBe('missing');
    expect(tokens.verify(blog, 'blog', 'b1', now)).toBe('invalid'); // another release
    expect(tokens.verify(blog, 'legal', 'b2', now)).toBe('invalid'); // another remote
    expect(tokens.verify(createSignalTokens('other').issue({ blog: 'b2' }, now).blog, 'blog', 'b2', now)).toBe(
      'invalid',
    );
    const [at, nonce, mac] = blog.split('.') as [string, string, string];
    const later = (Number.parseInt(at, 36) + 3600).toString(36);
    expect(tokens.verify(`${later}.${nonce}.${mac}`, 'blog', 'b2', now)).toBe('invalid'); // its time changed
    expect(tokens.verify(`${at}.${nonce}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`, 'blog', 'b2', now)).toBe(
      'invalid',
    );
    expect(tokens.verify('not a token', 'blog', 'b2', now)).toBe('invalid');
    expect(tokens.verify(blog, 'blog', 'b2', now + TOKEN_TTL_MS + 1000)).toBe('expired');
  });

  it('count a few reports per token and source', () => {
    const { blog } = tokens.issue({ blog: 'b2' }) as { blog: string };
    const one = tokens.source('203.0.113.7');
    const other = tokens.source('198.51.100.7');
    const spent = Array.from({ length: REPORTS_PER_TOKEN + 2 }, () => tokens.spend(blog, one));
    expect(spent).toEqual([...Array<boolean>(REPORTS_PER_TOKEN).fill(true), false, false]);
    // Visitors of one stored page share its token: each has its own few.
    expect(tokens.spend(blog, other)).toBe(true);
  });

  it('count a few errors per visitor and per network for a release, whatever the tokens', () => {
    const claims = (ip: string, n: number, release = 'b2') =>
      Array.from({ length: n }, () => tokens.claimError('blog', release, tokens.source(ip))).filter(Boolean).length;
    expect(claims('192.0.2.1', 10)).toBe(ERRORS_PER_VISITOR);
    expect(claims('192.0.2.1', 1, 'b3')).toBe(1); // another release
    // One network's visitors together count no more than ERRORS_PER_NETWORK.
    expect(claims('192.0.2.2', 10) + claims('192.0.2.3', 10)).toBe(ERRORS_PER_NETWORK - ERRORS_PER_VISITOR);
    expect(claims('192.0.3.1', 10)).toBe(ERRORS_PER_VISITOR);
  });

  it('count a few page views per visitor and release in a window', () => {
    const views = (ip: string, n: number, release = 'b2') =>
      Array.from({ length: n }, () => tokens.claimView('blog', release, ip)).filter(Boolean).length;
    expect(views('198.51.100.1', 4000)).toBe(VIEWS_PER_VISITOR);
    expect(views('198.51.100.1', 1, 'b1')).toBe(1);
    expect(views('198.51.100.2', 1)).toBe(1);
  });
});

describe('sources of reports', () => {
  it('are a visitor (IPv4 address, IPv6 /64) in a network (IPv4 /24, IPv6 /48), as the server sees them', () => {
    expect(addressParts('203.0.113.7')).toEqual({ visitor: '203.0.113.7', network: '203.0.113.0/24' });
    expect(addressParts('::ffff:203.0.113.7')).toEqual(addressParts('203.0.113.7'));
    const a = addressParts('2001:db8:1:2:3::4');
    expect(a).toEqual(addressParts('2001:db8:1:2:ffff::1')); // same /64
    expect(a.network).toBe(addressParts('2001:db8:1:ffff::1').network); // same /48
    expect(a.visitor).not.toBe(addressParts('2001:db8:1:ffff::1').visitor);
    expect(a.network).not.toBe(addressParts('2001:db8:2::1').network);
  });

  it('are kept as keyed hashes, never the address', () => {
    const tokens = createSignalTokens('test-secret');
    const s = tokens.source('203.0.113.7');
    expect(JSON.stringify(s)).not.toContain('203.0.113');
    expect(tokens.source('203.0.113.8').network).toBe(s.network);
    expect(tokens.source('203.0.113.8').visitor).not.toBe(s.visitor);
    expect(tokens.source('203.0.114.7').network).not.toBe(s.network);
    expect(createSignalTokens('another-secret').source('203.0.113.7')).not.toEqual(s);
  });
});
