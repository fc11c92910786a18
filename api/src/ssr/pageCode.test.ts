import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pageCodeList, shellPageCode, shellStartupModules, sharedPackageModules, takeShellModules } from './pageCode';

const BUILT = `<head>
    <!--app-head-->
    <script type="module" crossorigin src="/assets/index-BKHKkmz7.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/vendor-X1.js">
    <style data-href="/assets/index-B.css">body{}</style>
  </head>`;

describe("the page's code", () => {
  it("takes the shell's entry and preloads out of its built page, the entry first", () => {
    const { template, modules } = takeShellModules(BUILT);
    expect(modules).toEqual(['/assets/index-BKHKkmz7.js', '/assets/vendor-X1.js']);
    expect(template).not.toMatch(/<script type="module"|modulepreload/);
    expect(template).toContain('<!--app-head-->');
    expect(template).toContain('<style data-href="/assets/index-B.css">');
  });

  it('refuses a shell page without an entry (a broken build)', () => {
    expect(() => takeShellModules('<head></head>')).toThrow(/no entry module/);
  });

  it('lists the code as JSON that cannot end its element', () => {
    const list = pageCodeList('__PAGE_CODE__', ['/assets/a.js', '/x</script><script>alert(1)</script>']);
    expect(list.startsWith('<script type="application/json" id="__PAGE_CODE__">')).toBe(true);
    expect(list.match(/<\/script>/g)).toHaveLength(1);
    expect(JSON.parse(list.slice(list.indexOf('>') + 1, -'</script>'.length))).toEqual([
      '/assets/a.js',
      '/x</script><script>alert(1)</script>',
    ]);
  });
});

describe("the shell's startup modules", () => {
  const manifest = {
    'index.html': { file: 'assets/index-E.js', name: 'index', imports: ['_fn_import.js', '_react-core.js'] },
    '_fn_import.js': { file: 'assets/fn_import-F.js' },
    '_react-core.js': { file: 'assets/react-core-R.js' },
    '_helpers.js': { file: 'assets/helpers-H.js' },
    'react/index.js': {
      file: 'assets/__federation_shared_react-A.js',
      name: '__federation_shared_react',
      imports: ['_helpers.js', '_react-core.js'],
    },
    'router.ts': {
      file: 'assets/__federation_shared_react-router-dom-B.js',
      name: '__federation_shared_react-router-dom',
      imports: ['_fn_import.js'],
    },
    'zustand.mjs': {
      file: 'assets/__federation_shared_zustand-C.js',
      name: '__federation_shared_zustand',
      imports: ['_fn_import.js'],
    },
    'index.css': { file: 'assets/index-S.css' },
  };

  it("lists the entry's imports and the shared packages the shell starts with, each once, and no other", () => {
    expect(shellStartupModules(manifest, ['react', 'react-router-dom'])).toEqual([
      '/assets/index-E.js',
      '/assets/fn_import-F.js',
      '/assets/react-core-R.js',
      '/assets/__federation_shared_react-A.js',
      '/assets/helpers-H.js',
      '/assets/__federation_shared_react-router-dom-B.js',
    ]);
  });

  it("gives each shared package's chunks with what they import, for a route that needs one the start does not load", () => {
    expect(sharedPackageModules(manifest)).toEqual({
      react: ['/assets/__federation_shared_react-A.js', '/assets/helpers-H.js', '/assets/react-core-R.js'],
      'react-router-dom': ['/assets/__federation_shared_react-router-dom-B.js', '/assets/fn_import-F.js'],
      zustand: ['/assets/__federation_shared_zustand-C.js', '/assets/fn_import-F.js'],
    });
  });
});

describe("the shell's page code", () => {
  it('lists the entry, then the startup chunks from the build manifest, each once; the entry alone without a manifest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'page-code-'));
    try {
      const manifestFile = join(dir, 'manifest.json');
      expect(shellPageCode(BUILT, manifestFile, ['react']).modules).toEqual([
        '/assets/index-BKHKkmz7.js',
        '/assets/vendor-X1.js',
      ]);
      writeFileSync(
        manifestFile,
        JSON.stringify({
          'index.html': { file: 'assets/index-BKHKkmz7.js', imports: ['_core.js'] },
          '_core.js': { file: 'assets/core-C.js' },
          'react.js': {
            file: 'assets/__federation_shared_react-R.js',
            name: '__federation_shared_react',
            imports: ['_core.js'],
          },
        }),
      );
      const { template, modules } = shellPageCode(BUILT, manifestFile, ['react']);
      expect(modules).toEqual([
        '/assets/index-BKHKkmz7.js',
        '/assets/vendor-X1.js',
        '/assets/core-C.js',
        '/assets/__federation_shared_react-R.js',
      ]);
      expect(template).not.toContain('<script type="module"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
