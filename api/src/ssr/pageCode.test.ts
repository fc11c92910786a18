import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pageCodeList, shellPageCode, shellStartupModules, takeShellModules } from './pageCode';

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
  // The shape of the host's build manifest (shell/platform/vite/federationConfig.ts: entry, vendor, bundler runtime).
  const manifest = {
    'index.html': { file: 'assets/index-E.js', name: 'index', imports: ['_vendor.js', '_runtime.js'] },
    '_vendor.js': { file: 'assets/vendor-V.js', name: 'vendor', imports: ['_runtime.js'] },
    '_runtime.js': { file: 'assets/rolldown-runtime-R.js', name: 'rolldown-runtime' },
    '_later.js': { file: 'assets/later-L.js', name: 'later', imports: ['_vendor.js'] },
    'index.css': { file: 'assets/index-S.css' },
  };

  it('lists the entry and what it imports, each once, and no chunk it only loads later', () => {
    expect(shellStartupModules(manifest)).toEqual([
      '/assets/index-E.js',
      '/assets/vendor-V.js',
      '/assets/rolldown-runtime-R.js',
    ]);
  });
});

describe("the shell's page code", () => {
  it('lists the entry, then the startup chunks from the build manifest, each once; the entry alone without a manifest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'page-code-'));
    try {
      const manifestFile = join(dir, 'manifest.json');
      expect(shellPageCode(BUILT, manifestFile).modules).toEqual(['/assets/index-BKHKkmz7.js', '/assets/vendor-X1.js']);
      writeFileSync(
        manifestFile,
        JSON.stringify({
          'index.html': { file: 'assets/index-BKHKkmz7.js', imports: ['_core.js'] },
          '_core.js': { file: 'assets/core-C.js' },
        }),
      );
      const { template, modules } = shellPageCode(BUILT, manifestFile);
      expect(modules).toEqual(['/assets/index-BKHKkmz7.js', '/assets/vendor-X1.js', '/assets/core-C.js']);
      expect(template).not.toContain('<script type="module"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
