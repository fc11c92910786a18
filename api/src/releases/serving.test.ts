import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONTRACT_VERSION } from '@aitools/platform/contract';
import type { ServerEntry } from '@aitools/platform/contract';
import { CHECKED_FILES, fileDigest } from './health';
import { releaseDir, writeManifestAtomic, type Manifest, type ManifestEvent, type ResolvedRelease } from './manifest';
import { createReleaseServing } from './serving';

let releasesDir: string;
/** Server entries that throw on import, by release id. */
let throwing: Set<string>;
let imported: string[];

function store(id: string, builtAt: string, opts: { contract?: number | null } = {}) {
  const dir = releaseDir(releasesDir, 'directory', id);
  mkdirSync(join(dir, 'client'), { recursive: true });
  mkdirSync(join(dir, 'server'), { recursive: true });
  writeFileSync(join(dir, 'client', 'remoteEntry.js'), `export const get = () => '${id}';`);
  writeFileSync(join(dir, 'server', 'entry.mjs'), `export default { remote: 'directory', routes: {} }; // ${id}`);
  const meta = {
    id,
    remote: 'directory',
    version: '1.0.0',
    builtAt,
    sourceHash: id,
    shared: {},
    css: [],
    ...(opts.contract === null ? {} : { contractVersion: opts.contract ?? CONTRACT_VERSION }),
    files: Object.fromEntries(CHECKED_FILES.map((f) => [f, fileDigest(join(dir, f))])),
  };
  writeFileSync(join(dir, 'release.json'), JSON.stringify(meta));
}

const ev = (action: ManifestEvent['action'], id: string, from: string | null): ManifestEvent => ({
  action,
  id,
  from,
  at: '2026-11-23T00:00:00Z',
  by: 'ci',
});

function activate(active: string, history: ManifestEvent[]) {
  const m: Manifest = { version: 1, remotes: { directory: { active, history } } };
  writeManifestAtomic(releasesDir, m);
}

function serving() {
  return createReleaseServing({
    releasesDir,
    remotes: ['directory'],
    async importEntry(release: ResolvedRelease): Promise<ServerEntry> {
      imported.push(release.id);
      if (throwing.has(release.id)) throw new Error(`boom in ${release.serverEntry}`);
      return { remote: 'directory', routes: {} };
    },
  });
}

beforeEach(() => {
  releasesDir = mkdtempSync(join(tmpdir(), 'serving-test-'));
  throwing = new Set();
  imported = [];
  store('r1', '2026-11-01T00:00:00Z');
  store('r2', '2026-11-02T00:00:00Z');
  store('r3', '2026-11-03T00:00:00Z');
  activate('r3', [ev('release', 'r1', null), ev('release', 'r2', 'r1'), ev('release', 'r3', 'r2')]);
});
afterEach(() => rmSync(releasesDir, { recursive: true, force: true }));

describe('choosing the release to serve', () => {
  it('serves the active release when it is intact', async () => {
    const s = await serving().resolve('directory', 1000);
    expect(s.release?.id).toBe('r3');
    expect(s.release && s.public).toEqual({ id: 'r3', entry: '/remotes/directory/r3/remoteEntry.js', css: [] });
    expect(s.release && s.fallbackFrom).toBeUndefined();
  });

  it('falls back to the newest intact earlier release when the active folder is missing, and recovers when it is back', () => {
    const sv = serving();
    const dir = releaseDir(releasesDir, 'directory', 'r3');
    renameSync(dir, `${dir}.away`);
    const s = sv.current('directory');
    expect(s.release?.id).toBe('r2');
    expect(s.release && s.fallbackFrom).toEqual({ id: 'r3', problem: 'the release folder is missing' });
    expect(sv.health()).toMatchObject({
      ok: false,
      manifest: { ok: true },
      remotes: { directory: { active: 'r3', served: 'r2' } },
    });
    renameSync(`${dir}.away`, dir);
    expect(sv.current('directory').release?.id).toBe('r3');
    expect(sv.health()).toMatchObject({ ok: true, remotes: {} });
  });

  it('skips a release whose server entry throws on import', async () => {
    throwing.add('r3');
    const sv = serving();
    const s = await sv.resolve('directory', 1000);
    expect(s.release?.id).toBe('r2');
    expect(s.release && s.fallbackFrom?.problem).toMatch(/server entry does not load/);
    // Known now without importing again; /remotes.json and the page agree.
    expect(sv.current('directory').release?.id).toBe('r2');
    expect(imported).toEqual(['r3', 'r2']);
  });

  it.each([
    [
      'a damaged browser entry',
      () => writeFileSync(join(releaseDir(releasesDir, 'directory', 'r3'), 'client', 'remoteEntry.js'), '<html>junk'),
      /client\/remoteEntry\.js changed since the release/,
    ],
    [
      'a missing server entry',
      () => rmSync(join(releaseDir(releasesDir, 'directory', 'r3'), 'server', 'entry.mjs')),
      /server\/entry\.mjs is missing/,
    ],
    [
      'an unreadable release.json',
      () => writeFileSync(join(releaseDir(releasesDir, 'directory', 'r3'), 'release.json'), '{'),
      /release\.json is missing or unreadable/,
    ],
    [
      'another route contract',
      () => store('r3', '2026-11-03T00:00:00Z', { contract: CONTRACT_VERSION + 1 }),
      /built against route contract \d+; the shell runs contract/,
    ],
    [
      'a folder renamed to the active id',
      () => {
        rmSync(releaseDir(releasesDir, 'directory', 'r3'), { recursive: true });
        renameSync(releaseDir(releasesDir, 'directory', 'r1'), releaseDir(releasesDir, 'directory', 'r3'));
      },
      /release\.json names another release \(directory\/r1\)/,
    ],
    [
      'no recorded contract',
      () => store('r3', '2026-11-03T00:00:00Z', { contract: null }),
      /records no route-contract version/,
    ],
  ])('treats %s as broken', (_name, fault, problem) => {
    fault();
    const s = serving().current('directory');
    expect(s.release?.id).toBe('r2');
    expect(s.release && s.fallbackFrom?.problem).toMatch(problem);
  });

  it('never falls back to a release that was rolled back from', () => {
    activate('r2', [ev('release', 'r1', null), ev('release', 'r3', 'r1'), ev('rollback', 'r2', 'r3')]);
    rmSync(releaseDir(releasesDir, 'directory', 'r2'), { recursive: true });
    expect(serving().current('directory').release?.id).toBe('r1');
  });

  it('uses the stored folders, newest first, when the history does not name an earlier release', () => {
    activate('r3', []);
    rmSync(join(releaseDir(releasesDir, 'directory', 'r3'), 'client', 'remoteEntry.js'));
    expect(serving().current('directory').release?.id).toBe('r2');
  });

  it('gives an honest "unavailable" when nothing intact is left', () => {
    for (const id of ['r1', 'r2', 'r3']) rmSync(releaseDir(releasesDir, 'directory', id), { recursive: true });
    const s = serving().current('directory');
    expect(s.release).toBeNull();
    expect(!s.release && s.problem).toBe('release r3: the release folder is missing; no intact earlier release');
  });

  it('a server entry that does not settle in time is kept (the render budget handles it) without waiting longer', async () => {
    const sv = createReleaseServing({ releasesDir, remotes: ['directory'], importEntry: () => new Promise(() => {}) });
    const started = Date.now();
    const s = await sv.resolve('directory', 30);
    expect(s.release?.id).toBe('r3');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('reports a bad manifest once per bad file state, and serves the last good one', () => {
    const errors: string[] = [];
    const sv = createReleaseServing({
      releasesDir,
      remotes: ['directory'],
      importEntry: async () => ({ remote: 'directory', routes: {} }),
      logger: { error: (_o: object, msg: string) => errors.push(msg), warn: () => {} } as never,
    });
    sv.current('directory');
    writeFileSync(join(releasesDir, 'manifest.json'), '{"version":1,"remo');
    for (let i = 0; i < 3; i++) expect(sv.current('directory').release?.id).toBe('r3');
    expect(errors.filter((m) => m.startsWith('release manifest is bad'))).toHaveLength(1);
    expect(sv.health()).toMatchObject({
      ok: false,
      manifest: { ok: false, problem: expect.stringMatching(/not valid JSON/), servingFrom: 'last-good' },
    });
  });
});
