import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRELOAD_MANIFEST_FILE, type ResolvedRelease } from '../releases/layout';
import { parseRoutePreload, PRELOAD_CACHE_BYTES, preloadCacheBytes, routePreload } from './preload';

describe("a route module's preload entry", () => {
  it('reads the files its code needs', () => {
    expect(parseRoutePreload({ files: ['__federation_expose_Home-A.js', 'styles-B.js'] })).toEqual({
      files: ['__federation_expose_Home-A.js', 'styles-B.js'],
    });
  });

  it('reads releases built before: a list of files, or files with the shared packages they asked for', () => {
    expect(parseRoutePreload(['a.js', 'b.js'])).toEqual({ files: ['a.js', 'b.js'] });
    expect(parseRoutePreload({ files: ['a.js'], shared: ['zustand'] })).toEqual({ files: ['a.js'] });
  });

  it('keeps only plain file names: a release cannot make the page name another address', () => {
    expect(
      parseRoutePreload({ files: ['../../assets/x.js', 'https://evil.example/x.js', 'ok.js', 3, '"><script>'] }),
    ).toEqual({
      files: ['ok.js'],
    });
    expect(parseRoutePreload('nonsense')).toEqual({ files: [] });
    expect(parseRoutePreload(null)).toEqual({ files: [] });
  });
});

describe("a release's preload manifest", () => {
  const release = (clientDir: string): ResolvedRelease => ({
    remote: 'blog',
    id: 'r',
    clientDir,
    serverEntry: '',
    css: [],
  });

  it('is read again when its file changes, and the cache of all releases stays within its bound', () => {
    const root = mkdtempSync(join(tmpdir(), 'preload-test-'));
    try {
      // Forty releases of 100 kB manifests: four times the bound.
      const padding = 'x'.repeat(100_000);
      for (let i = 0; i < 40; i++) {
        const dir = join(root, `r${i}`);
        mkdirSync(dir);
        writeFileSync(
          join(dir, PRELOAD_MANIFEST_FILE),
          JSON.stringify({ './Home': { files: [`home-${i}.js`] }, padding }),
        );
        expect(routePreload(release(dir), './Home').files).toEqual([`home-${i}.js`]);
        expect(preloadCacheBytes()).toBeLessThanOrEqual(PRELOAD_CACHE_BYTES);
      }
      expect(preloadCacheBytes()).toBeGreaterThan(PRELOAD_CACHE_BYTES / 2);
      // The first release's manifest was let go, and is read again from disk when asked.
      expect(routePreload(release(join(root, 'r0')), './Home').files).toEqual(['home-0.js']);
      expect(routePreload(release(join(root, 'r0')), './Missing')).toEqual({ files: [] });
      expect(routePreload(release(join(root, 'none')), './Home')).toEqual({ files: [] });
      // A manifest written again (a release folder replaced in place) is read again.
      const last = join(root, 'r39', PRELOAD_MANIFEST_FILE);
      writeFileSync(last, JSON.stringify({ './Home': { files: ['home-new.js'] } }));
      utimesSync(last, new Date(), new Date(Date.now() + 5000));
      expect(routePreload(release(join(root, 'r39')), './Home')).toEqual({ files: ['home-new.js'] });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
