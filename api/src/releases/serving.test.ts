import * as fs from 'node:fs';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONTRACT_VERSION } from '@aitools/platform/contract';
import type { ServerEntry } from '@aitools/platform/contract';
import { servedReleasesKey } from '../ssr/pageCache';
import { CHECKED_FILES, fileDigest } from './health';
import { manifestPath, writeManifestAtomic, fileManifestStore } from './manifestFile';
import { type Manifest, type ManifestEvent } from './manifest';
import { releaseDir, type ResolvedRelease } from './layout';
import { createReleaseServing, type ReleaseServing, type ReleaseServingOptions, type Served } from './serving';
import { rollback } from './store';
import { localStores } from './openReleaseStore';

/** The fs calls that read the release files, counted (each still does what it does). */
const FS_READS = vi.hoisted(
  () => ['statSync', 'lstatSync', 'existsSync', 'readFileSync', 'readdirSync', 'openSync'] as const,
);
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const counted = Object.fromEntries(FS_READS.map((name) => [name, vi.fn(real[name])]));
  return { ...real, ...counted, default: { ...real, ...counted } };
});
const fsReads = () => FS_READS.reduce((n, name) => n + vi.mocked(fs[name]).mock.calls.length, 0);

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

const opened: ReleaseServing[] = [];
function serving(opts: Partial<ReleaseServingOptions> = {}) {
  const sv = createReleaseServing({
    releasesDir,
    remotes: ['directory'],
    async importEntry(release: ResolvedRelease): Promise<ServerEntry> {
      imported.push(release.id);
      if (throwing.has(release.id)) throw new Error(`boom in ${release.serverEntry}`);
      return { remote: 'directory', routes: {} };
    },
    ...opts,
  });
  opened.push(sv);
  return sv;
}

/** Waits (a second at most) until `sv` serves `id` to the directory. */
const serves = (sv: ReleaseServing, id: string) =>
  vi.waitFor(() => expect(sv.current('directory').release?.id).toBe(id), { timeout: 1000, interval: 5 });

beforeEach(() => {
  releasesDir = mkdtempSync(join(tmpdir(), 'serving-test-'));
  throwing = new Set();
  imported = [];
  store('r1', '2026-11-01T00:00:00Z');
  store('r2', '2026-11-02T00:00:00Z');
  store('r3', '2026-11-03T00:00:00Z');
  activate('r3', [ev('release', 'r1', null), ev('release', 'r2', 'r1'), ev('release', 'r3', 'r2')]);
});
afterEach(() => {
  for (const sv of opened.splice(0)) sv.close();
  rmSync(releasesDir, { recursive: true, force: true });
});

describe('choosing the release to serve', () => {
  it('serves the active release when it is intact', async () => {
    const s = await serving().resolve('directory', 1000);
    expect(s.release?.id).toBe('r3');
    expect(s.release && s.public).toEqual({ id: 'r3', entry: '/remotes/directory/r3/remoteEntry.js', css: [] });
    expect(s.release && s.fallbackFrom).toBeUndefined();
  });

  it('falls back to the newest intact earlier release when the active folder is missing, and recovers when it is back', async () => {
    const broken: string[] = [];
    const sv = serving({ onBroken: (remote, id) => void broken.push(`${remote}@${id}`) });
    const dir = releaseDir(releasesDir, 'directory', 'r3');
    renameSync(dir, `${dir}.away`);
    const s = sv.current('directory');
    expect(s.release?.id).toBe('r2');
    // Told once, however often the choice is asked for.
    sv.current('directory');
    expect(broken).toEqual(['directory@r3']);
    expect(s.release && s.fallbackFrom).toEqual({ id: 'r3', problem: 'the release folder is missing' });
    expect(sv.health()).toMatchObject({
      ok: false,
      manifest: { ok: true },
      remotes: { directory: { active: 'r3', served: 'r2' } },
    });
    renameSync(`${dir}.away`, dir);
    await serves(sv, 'r3');
    expect(sv.health()).toMatchObject({ ok: true, remotes: {} });
  });

  it('with a store to fetch from, fetches a missing active release, serving the earlier one until it is whole', async () => {
    const dir = releaseDir(releasesDir, 'directory', 'r3');
    renameSync(dir, `${dir}.away`);
    let arrive!: () => void;
    const arrived = new Promise<void>((r) => (arrive = r));
    const fetched: string[] = [];
    const logger = { error: vi.fn(), warn: vi.fn() };
    const sv = serving({
      logger,
      async fetch(remote, id) {
        fetched.push(`${remote}/${id}`);
        await arrived;
        renameSync(`${dir}.away`, dir);
        return true;
      },
    });
    // No page names a file this instance lacks: the earlier release serves meanwhile, fetched once, not a fault.
    expect(sv.current('directory').release?.id).toBe('r2');
    expect(sv.current('directory').release?.id).toBe('r2');
    expect(fetched).toEqual(['directory/r3']);
    expect(logger.error).not.toHaveBeenCalled();
    // The remote's own page waits for it within its budget.
    const resolved = sv.resolve('directory', 5000);
    arrive();
    expect((await resolved).release?.id).toBe('r3');
    expect(sv.current('directory').release?.id).toBe('r3');
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
    const sv = serving({ importEntry: () => new Promise(() => {}) });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      let s: Served | undefined;
      void sv.resolve('directory', 30).then((r) => (s = r));
      // On a clock of the test's own: still waiting 1 ms before the bound, answered at it.
      await vi.advanceTimersByTimeAsync(29);
      expect(s).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      await new Promise((r) => setImmediate(r));
      expect(s?.release?.id).toBe('r3');
    } finally {
      vi.useRealTimers();
    }
  });

  it('reports a bad manifest once per bad file state, and serves the last good one', async () => {
    const errors: string[] = [];
    const sv = serving({ logger: { error: (_o: object, msg: string) => errors.push(msg), warn: () => {} } as never });
    sv.current('directory');
    writeFileSync(join(releasesDir, 'manifest.json'), '{"version":1,"remo');
    await vi.waitFor(() => expect(sv.manifest().ok).toBe(false), { timeout: 1000 });
    for (let i = 0; i < 3; i++) expect(sv.current('directory').release?.id).toBe('r3');
    expect(errors.filter((m) => m.startsWith('release manifest is bad'))).toHaveLength(1);
    expect(sv.health()).toMatchObject({
      ok: false,
      manifest: { ok: false, problem: expect.stringMatching(/not valid JSON/), servingFrom: 'last-good' },
    });
  });
});

describe('holding the choice between changes', () => {
  it('reads no file while nothing changes, however often a request asks', async () => {
    const sv = serving({ recheckMs: 60_000 });
    let reads = fsReads();
    // The first asks work the choice out from the files.
    sv.current('directory');
    sv.current('directory', 'r2');
    await sv.resolve('directory', 1000);
    expect(fsReads() - reads).toBeGreaterThan(10);
    reads = fsReads();
    for (let i = 0; i < 1000; i++) {
      // What a cached page's request asks: the page cache's key (with and without a canary), the manifest (canary
      // buckets), the release a view is counted for.
      expect(servedReleasesKey(sv, ['directory'], i % 2 ? { directory: 'r2' } : {})).toBe(
        `directory=${i % 2 ? 'r2' : 'r3'}`,
      );
      sv.manifest();
      expect(sv.current('directory').release?.id).toBe('r3');
    }
    // What a render and /api/health ask.
    expect((await sv.resolve('directory', 1000)).release?.id).toBe('r3');
    expect(sv.health().ok).toBe(true);
    expect(fsReads() - reads).toBe(0);
  });

  it('sees each change to the manifest and the release folders through the watch, within a second', async () => {
    const sv = serving({ recheckMs: 0 });
    const r3 = releaseDir(releasesDir, 'directory', 'r3');
    const browserEntry = join(r3, 'client', 'remoteEntry.js');
    expect(sv.current('directory').release?.id).toBe('r3');

    // The manifest written atomically (a rename), then edited in place.
    const history = [ev('release', 'r1', null), ev('release', 'r2', 'r1'), ev('release', 'r3', 'r2')];
    activate('r2', [...history, ev('rollback', 'r2', 'r3')]);
    await serves(sv, 'r2');
    writeFileSync(
      manifestPath(releasesDir),
      JSON.stringify({ version: 1, remotes: { directory: { active: 'r3', history } } }),
    );
    await serves(sv, 'r3');

    // A damaged file in the active release, then restored.
    const original = readFileSync(browserEntry);
    writeFileSync(browserEntry, '<html>502 Bad Gateway</html>');
    await serves(sv, 'r2');
    const fallback = sv.current('directory');
    expect(fallback.release && fallback.fallbackFrom?.problem).toMatch(/changed since/);
    writeFileSync(browserEntry, original);
    await serves(sv, 'r3');

    // The folder removed, then put back as a new folder.
    rmSync(r3, { recursive: true });
    await serves(sv, 'r2');
    store('r3', '2026-11-03T00:00:00Z');
    await serves(sv, 'r3');
    // Its files are watched again.
    rmSync(join(r3, 'server', 'entry.mjs'));
    await serves(sv, 'r2');

    // A new release, stored and made active.
    store('r4', '2026-11-04T00:00:00Z');
    activate('r4', [...history, ev('release', 'r4', 'r3')]);
    await serves(sv, 'r4');
  });

  it('without a watch, the re-check picks a change up within its period', async () => {
    const sv = serving({ watch: false, recheckMs: 100 });
    expect(sv.current('directory').release?.id).toBe('r3');
    rmSync(join(releaseDir(releasesDir, 'directory', 'r3'), 'server', 'entry.mjs'));
    // Held until the re-check.
    expect(sv.current('directory').release?.id).toBe('r3');
    await serves(sv, 'r2');
  });

  it("serves a rollback made through this process's manifest store from the very next ask", async () => {
    const manifests = fileManifestStore(releasesDir);
    const sv = serving({ manifests, watch: false, recheckMs: 0 });
    expect(sv.current('directory').release?.id).toBe('r3');
    await rollback('directory', { ...localStores(releasesDir), manifests, to: 'r2' });
    expect(sv.current('directory').release?.id).toBe('r2');
  });
});
