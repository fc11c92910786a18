// @vitest-environment node
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tableExposes } from './federationConfig';
import { exposesOf, pathOf, postPath, REMOTE_NAMES, ROUTE_TABLE, staticPaths, toolPath } from '../src/routeTable';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A remote package folder holding these route files. */
function remoteRoot(...files: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'route-table-'));
  dirs.push(root);
  mkdirSync(join(root, 'src', 'routes'), { recursive: true });
  for (const f of files) writeFileSync(join(root, 'src', 'routes', f), 'export default {};');
  return root;
}

describe('the route table', () => {
  it('gives every remote its exposes, each module from src/routes', () => {
    expect(exposesOf('legal')).toEqual({
      './Privacy': './src/routes/Privacy.tsx',
      './Terms': './src/routes/Terms.tsx',
      './Cookies': './src/routes/Cookies.tsx',
    });
    for (const remote of REMOTE_NAMES) expect(Object.keys(exposesOf(remote)).length).toBeGreaterThan(0);
    expect(new Set(ROUTE_TABLE.map((r) => r.path)).size).toBe(ROUTE_TABLE.length);
  });

  it('makes the addresses of its pages, parameters encoded, and refuses a path it does not have', () => {
    expect(toolPath('cursor')).toBe('/tool/cursor');
    expect(postPath('a b/c')).toBe('/blog/a%20b%2Fc');
    expect(pathOf('/privacy')).toBe('/privacy');
    expect(() => pathOf('/tools/:slug', { slug: 'x' })).toThrow('/tools/:slug is not in the route table');
  });

  it('lists the pages without parameters for the sitemap', () => {
    expect(staticPaths()).toEqual([
      '/',
      '/blog',
      '/advertise',
      '/submit',
      '/contact',
      '/privacy',
      '/terms',
      '/cookies',
    ]);
  });

  it("fails a remote's build when a module the table names is missing, saying which route needs it", () => {
    expect(tableExposes('legal', remoteRoot('Privacy.tsx', 'Terms.tsx', 'Cookies.tsx'))).toEqual(exposesOf('legal'));
    const root = remoteRoot('Privacy.tsx', 'Cookies.tsx');
    expect(() => tableExposes('legal', root)).toThrow(
      `Route /terms is rendered by legal ./Terms, but ./src/routes/Terms.tsx does not exist in ${root}`,
    );
    expect(() => tableExposes('payments', root)).toThrow(/names no route for the remote "payments"/);
  });
});
