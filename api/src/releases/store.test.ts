import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API_ROOT, remotePackageDir } from '../paths';
import { manifestPath, readManifest, writeManifestAtomic } from './manifestFile';
import type { Manifest } from './manifest';
import { CONTRACT_VERSION } from '@aitools/platform/contract';
import { makeReleaseId } from './build';
import { ReleaseError } from './refusal';
import { abort, activateStored, KEEP_RELEASES, listReleases, prune, release, rollback } from './store';
import { storedReleases } from '../../test/storedReleases';
import { localStores } from './openReleaseStore';

let dir: string;
let releasesDir: string;
const quiet = () => {};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'releases-test-'));
  releasesDir = join(dir, 'releases');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A finished build (as vite would write it) with a server entry that exports the given source. */
function fakeBuild(name: string, serverSource: string | null, withBrowserEntry = true): string {
  const out = join(dir, 'builds', name);
  mkdirSync(join(out, 'client'), { recursive: true });
  if (withBrowserEntry) writeFileSync(join(out, 'client', 'remoteEntry.js'), 'export const get = () => {};');
  writeFileSync(join(out, 'client', 'style-abc.css'), '.x{}');
  writeFileSync(
    join(out, 'client', 'preload.json'),
    JSON.stringify({ './Privacy': [], './Terms': [], './Cookies': [] }),
  );
  if (serverSource !== null) {
    mkdirSync(join(out, 'server'));
    writeFileSync(join(out, 'server', 'entry.mjs'), serverSource);
  }
  return out;
}

const GOOD_ENTRY = `import { createElement } from 'react';
export default { remote: 'legal', routes: { './Privacy': { Component: () => createElement('p', null, 'hi') }, './Terms': { Component: () => null }, './Cookies': { Component: () => null } } };`;

/** A copy of the legal remote's package folder with its package.json changed. */
function fixturePackage(edit: (pkg: { description?: string; dependencies: Record<string, string> }) => void): string {
  const pkgDir = join(dir, 'pkg');
  mkdirSync(pkgDir, { recursive: true });
  const pkg = JSON.parse(readFileSync(join(remotePackageDir('legal'), 'package.json'), 'utf8'));
  edit(pkg);
  writeFileSync(join(pkgDir, 'package.json'), JSON.stringify(pkg));
  return pkgDir;
}

function releaseFake(
  name: string,
  source: string | null = GOOD_ENTRY,
  extra: Partial<Parameters<typeof release>[1]> = {},
) {
  // A different package.json per build gives a different release id.
  const packageDir = fixturePackage((p) => (p.description = name));
  return release('legal', {
    ...localStores(releasesDir),
    prebuiltDir: fakeBuild(name, source),
    packageDir,
    log: quiet,
    ...extra,
  });
}

describe('release', () => {
  it('stores a checked build as an immutable release and activates it, with history', async () => {
    const r = await releaseFake('v1');
    expect(r.skipped).toBe(false);
    expect(r.id).toMatch(/^1\.0\.0-\d{8}T\d{6}Z-[0-9a-f]{8}$/);
    const stored = join(releasesDir, 'legal', r.id);
    expect(existsSync(join(stored, 'client', 'remoteEntry.js'))).toBe(true);
    expect(existsSync(join(stored, 'server', 'entry.mjs'))).toBe(true);
    const meta = JSON.parse(readFileSync(join(stored, 'release.json'), 'utf8'));
    expect(meta).toMatchObject({ id: r.id, remote: 'legal', css: ['style-abc.css'], shared: { react: '^19.2.0' } });
    const m = readManifest(releasesDir);
    expect(m.remotes.legal.active).toBe(r.id);
    expect(m.remotes.legal.history).toEqual([
      expect.objectContaining({
        action: 'release',
        id: r.id,
        from: null,
        by: expect.any(String),
        at: expect.any(String),
      }),
    ]);
  });

  it('refuses a build without its server entry, and changes nothing', async () => {
    const first = await releaseFake('v1');
    const packageDir = fixturePackage((p) => (p.description = 'v2'));
    await expect(
      release('legal', { ...localStores(releasesDir), prebuiltDir: fakeBuild('v2', null), packageDir, log: quiet }),
    ).rejects.toThrow(/no server entry/);
    expect(readManifest(releasesDir).remotes.legal.active).toBe(first.id);
    expect(await listReleases(localStores(releasesDir), 'legal')).toHaveLength(1);
  });

  it('refuses a build without its browser entry', async () => {
    const packageDir = fixturePackage(() => {});
    await expect(
      release('legal', {
        ...localStores(releasesDir),
        prebuiltDir: fakeBuild('v1', GOOD_ENTRY, false),
        packageDir,
        log: quiet,
      }),
    ).rejects.toThrow(/no browser entry/);
    expect(existsSync(manifestPath(releasesDir))).toBe(false);
  });

  it('refuses a build that does not list its exposed modules', async () => {
    const build = fakeBuild('v1', GOOD_ENTRY);
    rmSync(join(build, 'client', 'preload.json'));
    await expect(
      release('legal', {
        ...localStores(releasesDir),
        prebuiltDir: build,
        packageDir: fixturePackage(() => {}),
        log: quiet,
      }),
    ).rejects.toThrow(/lists no exposed modules/);
  });

  it('refuses a server entry that does not load (checked in a separate process)', async () => {
    await expect(releaseFake('broken', 'export default {')).rejects.toThrow(/server entry does not load/);
    await expect(releaseFake('no-routes', 'export default { remote: "legal", routes: {} };')).rejects.toThrow(
      /does not expose a component for \.\/Privacy/,
    );
  });

  it('refuses shared-dependency ranges the shell cannot satisfy, with a clear message', async () => {
    const packageDir = fixturePackage((p) => (p.dependencies.react = '^18.2.0'));
    await expect(
      release('legal', {
        ...localStores(releasesDir),
        prebuiltDir: fakeBuild('old-react', GOOD_ENTRY),
        packageDir,
        log: quiet,
      }),
    ).rejects.toThrow(
      /shared dependencies do not match the shell[\s\S]*react: the remote needs \^18\.2\.0 but the shell provides 19\./,
    );
  });

  it('refuses unknown remotes', async () => {
    await expect(release('payments', localStores(releasesDir))).rejects.toThrow(/Unknown remote "payments"/);
  });

  it('skips an unchanged remote with --if-changed', async () => {
    const packageDir = fixturePackage(() => {});
    const first = await release('legal', {
      ...localStores(releasesDir),
      prebuiltDir: fakeBuild('a', GOOD_ENTRY),
      packageDir,
      log: quiet,
    });
    const again = await release('legal', {
      ...localStores(releasesDir),
      prebuiltDir: fakeBuild('b', GOOD_ENTRY),
      packageDir,
      ifChanged: true,
      log: quiet,
    });
    expect(again).toMatchObject({ remote: 'legal', id: first.id, skipped: true, state: { active: first.id } });
  });

  it('re-releases with --if-changed when the platform, the contracts or the lockfile it bundles changed', async () => {
    // A stand-in checkout for what the build bundles besides the package itself.
    const repoRoot = join(dir, 'checkout');
    const files = ['shell/platform/src/api.ts', 'contracts/src/tools.ts', 'pnpm-lock.yaml'];
    for (const f of files) {
      mkdirSync(join(repoRoot, f, '..'), { recursive: true });
      writeFileSync(join(repoRoot, f), 'v1\n');
    }
    const packageDir = fixturePackage(() => {});
    const opts = { ...localStores(releasesDir), packageDir, repoRoot, ifChanged: true, log: quiet };
    let active = await release('legal', { ...opts, prebuiltDir: fakeBuild('first', GOOD_ENTRY) });
    for (const [i, f] of files.entries()) {
      writeFileSync(join(repoRoot, f), 'v2\n');
      const next = await release('legal', { ...opts, prebuiltDir: fakeBuild(`after-${i}`, GOOD_ENTRY) });
      expect(next.skipped, f).toBe(false);
      expect(next.id, f).not.toBe(active.id);
      expect(readManifest(releasesDir).remotes.legal.active).toBe(next.id);
      active = next;
    }
    const meta = JSON.parse(readFileSync(join(releasesDir, 'legal', active.id, 'release.json'), 'utf8'));
    expect(meta.source.inputs).toEqual({
      remote: expect.stringMatching(/^[0-9a-f]{12}$/),
      platform: expect.stringMatching(/^[0-9a-f]{12}$/),
      contracts: expect.stringMatching(/^[0-9a-f]{12}$/),
      lockfile: expect.stringMatching(/^[0-9a-f]{12}$/),
      config: expect.stringMatching(/^[0-9a-f]{12}$/),
    });
    expect((await release('legal', { ...opts, prebuiltDir: fakeBuild('unchanged', GOOD_ENTRY) })).skipped).toBe(true);
  });
});

describe('rollback', () => {
  it('returns to the previous release, or to a named one; only the pointer moves', async () => {
    const v1 = await releaseFake('v1');
    const v2 = await releaseFake('v2');
    const v3 = await releaseFake('v3');
    expect(await rollback('legal', localStores(releasesDir))).toMatchObject({
      remote: 'legal',
      from: v3.id,
      to: v2.id,
      state: { active: v2.id },
    });
    expect(readManifest(releasesDir).remotes.legal.active).toBe(v2.id);
    expect((await rollback('legal', { ...localStores(releasesDir), to: v1.id })).to).toBe(v1.id);
    const history = readManifest(releasesDir).remotes.legal.history.map((e) => [e.action, e.from, e.id]);
    expect(history).toEqual([
      ['release', null, v1.id],
      ['release', v1.id, v2.id],
      ['release', v2.id, v3.id],
      ['rollback', v3.id, v2.id],
      ['rollback', v2.id, v1.id],
    ]);
    expect((await listReleases(localStores(releasesDir), 'legal')).filter((r) => r.active).map((r) => r.id)).toEqual([
      v1.id,
    ]);
  });

  it('records the route contract, and refuses to roll back to a release built against another one (or none)', async () => {
    const v1 = await releaseFake('v1');
    const v2 = await releaseFake('v2');
    const metaFile = join(releasesDir, 'legal', v1.id, 'release.json');
    const meta = JSON.parse(readFileSync(metaFile, 'utf8'));
    expect(meta.contractVersion).toBe(CONTRACT_VERSION);
    expect(Object.keys(meta.files)).toEqual(['client/remoteEntry.js', 'server/entry.mjs']);
    const before = readFileSync(manifestPath(releasesDir), 'utf8');
    writeFileSync(metaFile, JSON.stringify({ ...meta, contractVersion: CONTRACT_VERSION + 1 }));
    await expect(rollback('legal', localStores(releasesDir))).rejects.toThrow(
      `Refusing to roll back to legal ${v1.id}: it was built against route contract ${CONTRACT_VERSION + 1}; the shell runs contract ${CONTRACT_VERSION}.`,
    );
    delete meta.contractVersion;
    writeFileSync(metaFile, JSON.stringify(meta));
    await expect(rollback('legal', { ...localStores(releasesDir), to: v1.id })).rejects.toThrow(
      /it records no route-contract version/,
    );
    expect(readFileSync(manifestPath(releasesDir), 'utf8')).toBe(before);
    expect(readManifest(releasesDir).remotes.legal.active).toBe(v2.id);
  });

  it('refuses to write a damaged manifest that would lose a remote with no last good entry, and says how to repair it', async () => {
    await releaseFake('v1');
    const v2 = await releaseFake('v2');
    const good = JSON.parse(readFileSync(manifestPath(releasesDir), 'utf8'));
    // blog's entry was never seen good (no last good copy of it) and is now broken.
    const damaged = JSON.stringify({ ...good, remotes: { ...good.remotes, blog: { history: [] } } });
    writeFileSync(manifestPath(releasesDir), damaged);
    await expect(rollback('legal', localStores(releasesDir))).rejects.toThrow(
      /Refusing to change the manifest: blog: .*no last good state is known for blog.*Repair manifest\.json/,
    );
    expect(readFileSync(manifestPath(releasesDir), 'utf8')).toBe(damaged);
    // With the file repaired, the rollback goes through.
    writeFileSync(manifestPath(releasesDir), JSON.stringify(good));
    expect((await rollback('legal', localStores(releasesDir))).from).toBe(v2.id);
  });

  it('rejects unknown ids and remotes and changes nothing', async () => {
    await releaseFake('v1');
    const before = readFileSync(manifestPath(releasesDir), 'utf8');
    await expect(rollback('legal', { ...localStores(releasesDir), to: '9.9.9-nope' })).rejects.toThrow(ReleaseError);
    await expect(rollback('legal', { ...localStores(releasesDir), to: '9.9.9-nope' })).rejects.toThrow(
      /Unknown release "9\.9\.9-nope" for legal/,
    );
    await expect(rollback('legal', localStores(releasesDir))).rejects.toThrow(/no earlier release/);
    await expect(rollback('nope', localStores(releasesDir))).rejects.toThrow(/Unknown remote "nope"/);
    expect(readFileSync(manifestPath(releasesDir), 'utf8')).toBe(before);
  });
});

describe('retention', () => {
  it(`keeps at least the last ${KEEP_RELEASES} releases and the active one`, async () => {
    const ids: string[] = [];
    for (let i = 0; i < KEEP_RELEASES + 2; i++) ids.push((await releaseFake(`v${i}`)).id);
    const kept = (await listReleases(localStores(releasesDir), 'legal')).map((r) => r.id);
    expect(kept).toHaveLength(KEEP_RELEASES);
    expect(kept).toContain(ids.at(-1));
    expect(kept).not.toContain(ids[0]);
    expect(await prune(localStores(releasesDir), 'legal')).toEqual([]);
    // Seven releases, each checked in a process of its own: slow on a busy machine.
  }, 90_000);
});

describe('release ids', () => {
  it('tell the version and the build', async () => {
    expect(makeReleaseId('2.1.0', 'abcdef0123456789', new Date('2026-11-23T04:15:07.123Z'))).toBe(
      '2.1.0-20261123T041507Z-abcdef01',
    );
  });
});

describe('the manifest write', () => {
  // The writer is stopped at each step of the write (half the text written, written and flushed, renamed), says where
  // it stands, and is killed there: the kill is known to land inside the write.
  it.each([
    { step: 'with half the text written', stopAt: 'write', expected: 'old' },
    { step: 'after flushing, before the rename', stopAt: 'rename', expected: 'old' },
    { step: 'right after the rename', stopAt: 'renamed', expected: 'new' },
  ])(
    'is atomic: a writer killed $step leaves the $expected manifest, never a broken one',
    async ({ stopAt, expected }) => {
      const old: Manifest = { version: 1, remotes: { legal: { active: 'old', history: [] } } };
      writeManifestAtomic(releasesDir, old);
      const script = `import fs from 'node:fs';
      import { syncBuiltinESMExports } from 'node:module';
      const { writeSync, renameSync } = fs;
      const stop = (step) => {
        writeSync(1, step + '\\n');
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
      };
      fs.writeSync = (fd, text, ...rest) => {
        if (${JSON.stringify(stopAt)} !== 'write') return writeSync(fd, text, ...rest);
        writeSync(fd, text.slice(0, text.length >> 1));
        stop('write');
      };
      fs.renameSync = (from, to) => {
        if (${JSON.stringify(stopAt)} === 'rename') stop('rename');
        renameSync(from, to);
        if (${JSON.stringify(stopAt)} === 'renamed') stop('renamed');
      };
      syncBuiltinESMExports();
      const { writeManifestAtomic } = await import(${JSON.stringify(join(API_ROOT, 'src/releases/manifestFile.ts'))});
      writeManifestAtomic(${JSON.stringify(releasesDir)}, { version: 1, remotes: { legal: { active: 'new', history: [] } } });`;
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: API_ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const exited = new Promise((r) => child.once('exit', r));
      let said = '';
      let leftover: string[];
      try {
        for await (const chunk of child.stdout) {
          said += String(chunk);
          if (said.includes('\n')) break;
        }
        leftover = readdirSync(releasesDir).filter((f) => f.endsWith('.tmp'));
      } finally {
        child.kill('SIGKILL');
        await exited;
      }
      expect(said.trim(), 'the writer stopped inside the write').toBe(stopAt);
      const parsed = JSON.parse(readFileSync(manifestPath(releasesDir), 'utf8')) as Manifest;
      expect(parsed.remotes.legal.active).toBe(expected);
      expect(readManifest(releasesDir).remotes.legal.active).toBe(expected);
      expect(leftover, 'the unfinished write is in a temporary file').toHaveLength(stopAt === 'renamed' ? 0 : 1);
      // The next write clears what the killed writer left.
      writeManifestAtomic(releasesDir, old);
      expect(readdirSync(releasesDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    },
    30_000,
  );
});

describe('a running canary', () => {
  it('is not ended by an activation or a rollback (409, nothing changes): promote or abort first', async () => {
    storedReleases(releasesDir, 'blog', ['b1', 'b2', 'b3', 'b4']);
    const at = { ...localStores(releasesDir), by: 'ops' };
    await activateStored('blog', 'b1', at);
    await activateStored('blog', 'b2', at);
    await activateStored('blog', 'b3', { ...at, canary: 10 });
    const before = readManifest(releasesDir).remotes.blog;
    const refused = /^blog runs b3 as a canary \(10%\): promote or abort it first\.$/;
    for (const change of [
      () => rollback('blog', at),
      () => rollback('blog', { ...at, to: 'b1' }),
      () => activateStored('blog', 'b4', at),
      () => activateStored('blog', 'b4', { ...at, canary: 5 }),
    ])
      await expect(change()).rejects.toMatchObject({ status: 409, message: expect.stringMatching(refused) });
    expect(readManifest(releasesDir).remotes.blog).toEqual(before);
    // Ended explicitly (the console's rollback of a canary does this), the rollback goes on as before.
    await abort('blog', at);
    expect(await rollback('blog', at)).toMatchObject({ remote: 'blog', from: 'b2', to: 'b1', state: { active: 'b1' } });
  });
});

describe('pruning', () => {
  it('keeps the release a rollback returns to, however many newer releases wait unactivated', async () => {
    const at = { ...localStores(releasesDir), by: 'ops' };
    storedReleases(releasesDir, 'legal', ['a']);
    await activateStored('legal', 'a', at);
    // Then five uploads never activated (built after n, or claiming so), and n, activated.
    storedReleases(releasesDir, 'legal', ['a', 'n', 'u1', 'u2', 'u3', 'u4', 'u5']);
    await activateStored('legal', 'n', at);
    expect(existsSync(join(releasesDir, 'legal', 'a'))).toBe(true);
    expect(await rollback('legal', at)).toMatchObject({ remote: 'legal', from: 'n', to: 'a', state: { active: 'a' } });
  });
});
