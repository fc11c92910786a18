import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureSignals, messageHash, remoteOfStack, reportSignal, watchUnhandledErrors } from './signals';

const releases = {
  blog: {
    id: '1.0.0-20261125T120000Z-abcd1234',
    entry: '/remotes/blog/1.0.0-20261125T120000Z-abcd1234/remoteEntry.js',
    css: [],
  },
};

afterEach(() => vi.restoreAllMocks());

describe('error reports per release', () => {
  it('hashes a message to 8 hex digits', () => {
    expect(messageHash('TypeError: x is undefined')).toMatch(/^[0-9a-f]{8}$/);
    expect(messageHash('a')).not.toBe(messageHash('b'));
  });

  it('finds the remote and release in a stack pointing into its files', () => {
    expect(
      remoteOfStack(
        'Error: boom\n    at https://site.example/remotes/blog/1.0.0-x_y/__federation_expose_BlogPost-Ck.js:1:99',
      ),
    ).toEqual({ remote: 'blog', release: '1.0.0-x_y' });
    expect(remoteOfStack('Error: boom\n    at https://site.example/assets/index-abc.js:1:2')).toBeNull();
  });

  it('sends only remote, release, kind, route pattern and hash, once per error, and unhandled errors from remote files', () => {
    const beacons: [string, string][] = [];
    vi.stubGlobal('navigator', { sendBeacon: (url: string, body: string) => (beacons.push([url, body]), true) });
    configureSignals(releases, () => '/blog/:slug', { blog: 'page-token-blog', legal: 'page-token-legal' });
    reportSignal('boundary', 'blog', new Error('secret@example.com broke'));
    reportSignal('boundary', 'blog', new Error('secret@example.com broke'));
    reportSignal('boundary', 'legal', new Error('no release named for legal'));
    expect(beacons).toHaveLength(1);
    expect(beacons[0]![0]).toBe('/api/signals');
    expect(JSON.parse(beacons[0]![1])).toEqual({
      remote: 'blog',
      release: releases.blog.id,
      kind: 'boundary',
      route: '/blog/:slug',
      hash: messageHash('Error: secret@example.com broke'),
      token: 'page-token-blog',
    });

    const target = new EventTarget();
    watchUnhandledErrors(target as unknown as Window);
    const inRemote = Object.assign(new Error('from the remote'), {
      stack: 'Error: from the remote\n    at /remotes/blog/9.9.9-z/chunk.js:1:1',
    });
    target.dispatchEvent(Object.assign(new Event('error'), { error: inRemote }));
    target.dispatchEvent(Object.assign(new Event('error'), { error: new Error('the shell itself') }));
    expect(beacons.slice(1).map(([, b]) => JSON.parse(b) as object)).toEqual([
      {
        remote: 'blog',
        release: '9.9.9-z',
        kind: 'unhandled',
        route: '/blog/:slug',
        hash: messageHash('Error: from the remote'),
        token: 'page-token-blog',
      },
    ]);
    vi.unstubAllGlobals();
  });

  it('sends nothing for a remote the page named no token for (the server would not count it)', () => {
    const beacons: string[] = [];
    vi.stubGlobal('navigator', { sendBeacon: (_url: string, body: string) => (beacons.push(body), true) });
    configureSignals(releases, () => '/blog', {});
    reportSignal('boundary', 'blog', new Error('no token on this page'));
    expect(beacons).toEqual([]);
    vi.unstubAllGlobals();
  });
});
