/**
 * For the sandbox's tests: the test packages (testdata/packages) packed with `npm pack` and served by a local npm
 * registry (the packument and tarball routes npm install reads), so an inspection fetches them as it would from
 * npmjs.org.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const PACKAGES = join(import.meta.dirname, 'packages');

export interface Packed {
  name: string;
  version: string;
  manifest: Record<string, unknown>;
  tarball: Buffer;
}

/** Packs testdata/packages/<folder> with the shared stdio server and the given JSON files added to it. */
export function packPackage(folder: string, into: string, files: Record<string, unknown> = {}): Packed {
  const dir = mkdtempSync(join(into, `${folder}-`));
  cpSync(join(PACKAGES, folder), dir, { recursive: true });
  cpSync(join(PACKAGES, 'stdio-server.mjs'), join(dir, 'stdio-server.mjs'));
  for (const [name, value] of Object.entries(files)) writeFileSync(join(dir, name), JSON.stringify(value));
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', `--pack-destination=${into}`], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: dir },
    }),
  ) as { filename: string }[];
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
  return {
    name: manifest.name as string,
    version: manifest.version as string,
    manifest,
    tarball: readFileSync(join(into, packed!.filename)),
  };
}

export interface LocalRegistry {
  url: string;
  /** Requests it answered, by path. */
  requests: string[];
  close(): Promise<void>;
}

/** Serves the packed packages as an npm registry on a free port of 127.0.0.1. */
export async function serveNpmRegistry(packages: Packed[]): Promise<LocalRegistry> {
  const requests: string[] = [];
  let url = '';
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    requests.push(path);
    const tarball = /^\/(.+)\/-\/[^/]+-(\d+\.\d+\.\d+)\.tgz$/.exec(path);
    if (tarball) {
      const p = packages.find((x) => x.name === tarball[1] && x.version === tarball[2]);
      if (!p) return res.writeHead(404).end();
      return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(p.tarball);
    }
    const name = path.slice(1);
    const versions = packages.filter((p) => p.name === name);
    if (!versions.length)
      return res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
    const packument = {
      name,
      'dist-tags': { latest: versions.at(-1)!.version },
      versions: Object.fromEntries(
        versions.map((p) => [
          p.version,
          {
            ...p.manifest,
            dist: {
              tarball: `${url}/${name}/-/${name.replace(/^@[^/]+\//, '')}-${p.version}.tgz`,
              integrity: `sha512-${createHash('sha512').update(p.tarball).digest('base64')}`,
              shasum: createHash('sha1').update(p.tarball).digest('hex'),
            },
          },
        ]),
      ),
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(packument));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
