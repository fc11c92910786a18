import { describe, expect, it } from 'vitest';
import { parseRoutePreload } from './preload';

describe("a route module's preload entry", () => {
  it('reads the files and the shared packages its code asks the host for', () => {
    expect(parseRoutePreload({ files: ['__federation_expose_Home-A.js', 'styles-B.js'], shared: ['zustand'] })).toEqual(
      { files: ['__federation_expose_Home-A.js', 'styles-B.js'], shared: ['zustand'] },
    );
  });

  it('reads a release built before shared packages were listed (a list of files)', () => {
    expect(parseRoutePreload(['a.js', 'b.js'])).toEqual({ files: ['a.js', 'b.js'], shared: [] });
  });

  it('keeps only plain file names and package names: a release cannot make the page name another address', () => {
    expect(
      parseRoutePreload({
        files: ['../../assets/x.js', 'https://evil.example/x.js', 'ok.js', 3],
        shared: ['zustand', '"><script>', null],
      }),
    ).toEqual({ files: ['ok.js'], shared: ['zustand'] });
    expect(parseRoutePreload('nonsense')).toEqual({ files: [], shared: [] });
    expect(parseRoutePreload(null)).toEqual({ files: [], shared: [] });
  });
});
