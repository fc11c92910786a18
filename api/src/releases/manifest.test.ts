import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LAST_GOOD_FILE, manifestPath, readManifestChecked, writeManifestAtomic } from './manifestFile';
import type { Manifest } from './manifest';

let releasesDir: string;
const event = (id: string, from: string | null) => ({
  action: 'release' as const,
  id,
  from,
  at: '2026-11-23T00:00:00Z',
  by: 'ci',
});
const good: Manifest = {
  version: 1,
  remotes: {
    directory: { active: '1.0.0-a', history: [event('1.0.0-a', null)] },
    blog: { active: '1.0.0-b', history: [event('1.0.0-b', null)] },
  },
};

/** Writes the file as a fault would (not through the store), with a new mtime so the reader sees the change. */
function corrupt(text: string) {
  writeFileSync(manifestPath(releasesDir), text);
}

beforeEach(() => {
  // A fresh folder per test: the last-good memory is per releases folder.
  releasesDir = mkdtempSync(join(tmpdir(), 'manifest-test-'));
  writeManifestAtomic(releasesDir, good);
});
afterEach(() => rmSync(releasesDir, { recursive: true, force: true }));

describe('reading the manifest', () => {
  it('serves a good file and keeps it as the last good one on disk', () => {
    const read = readManifestChecked(releasesDir);
    expect(read).toMatchObject({ ok: true, servingFrom: 'file', manifest: good });
    expect(JSON.parse(readFileSync(join(releasesDir, LAST_GOOD_FILE), 'utf8'))).toEqual(good);
  });

  it.each([
    ['truncated', () => JSON.stringify(good).slice(0, 40), /not valid JSON/],
    ['empty', () => '', /empty/],
    ['not a manifest', () => JSON.stringify({ version: 2, remotes: [] }), /not a manifest/],
  ])('a %s file serves the last good manifest and says what is wrong', (_name, text, problem) => {
    corrupt(text());
    const read = readManifestChecked(releasesDir);
    expect(read.ok).toBe(false);
    expect(read.problem).toMatch(problem);
    expect(read.servingFrom).toBe('last-good');
    expect(read.manifest).toEqual(good);
    // The same bad state gives the same object: callers report it once.
    expect(readManifestChecked(releasesDir)).toBe(read);
  });

  it("keeps a problem in one remote's entry to that remote", () => {
    const bad = structuredClone(good) as unknown as { remotes: Record<string, Record<string, unknown>> };
    delete bad.remotes.blog!.active;
    bad.remotes.directory!.active = '2.0.0-new';
    corrupt(JSON.stringify(bad));
    const read = readManifestChecked(releasesDir);
    expect(read.ok).toBe(false);
    expect(read.problem).toMatch(/^blog: active/);
    expect(read.fromLastGood).toEqual(['blog']);
    expect(read.manifest.remotes.directory!.active).toBe('2.0.0-new');
    expect(read.manifest.remotes.blog!.active).toBe('1.0.0-b');
  });

  it('refuses an implausible release id (a path or markup) in active or history', () => {
    const bad = structuredClone(good);
    bad.remotes.blog!.active = '../../etc';
    bad.remotes.directory!.history.push(event('<script>', '1.0.0-a'));
    corrupt(JSON.stringify(bad));
    const read = readManifestChecked(releasesDir);
    expect(read.problem).toMatch(
      /directory: history\.1\.id: not a plausible release id; blog: active: not a plausible release id/,
    );
    expect(read.manifest).toEqual(good);
  });

  it('after a restart, a bad file is served from the last good copy on disk', async () => {
    corrupt('{"version":1,');
    // A new process: no memory of the good manifest.
    const { vi } = await import('vitest');
    vi.resetModules();
    const fresh = await import('./manifestFile');
    const read = fresh.readManifestChecked(releasesDir);
    expect(read).toMatchObject({ ok: false, servingFrom: 'last-good', manifest: good });
  });

  it('a missing file after a good one is a fault; a new store (no file, no copy) is not', () => {
    rmSync(manifestPath(releasesDir));
    expect(readManifestChecked(releasesDir)).toMatchObject({
      ok: false,
      problem: 'the manifest file is missing',
      manifest: good,
    });
    const fresh = mkdtempSync(join(tmpdir(), 'manifest-new-'));
    expect(readManifestChecked(fresh)).toMatchObject({ ok: true, manifest: { version: 1, remotes: {} } });
    expect(existsSync(join(fresh, LAST_GOOD_FILE))).toBe(false);
    rmSync(fresh, { recursive: true });
  });

  it('recovers once the file is good again, and never writes an invalid manifest', () => {
    corrupt('garbage');
    expect(readManifestChecked(releasesDir).ok).toBe(false);
    const next = structuredClone(good);
    next.remotes.blog!.active = '1.1.0-c';
    writeManifestAtomic(releasesDir, next);
    expect(readManifestChecked(releasesDir)).toMatchObject({ ok: true, manifest: next });
    expect(JSON.parse(readFileSync(join(releasesDir, LAST_GOOD_FILE), 'utf8'))).toEqual(next);
    const invalid = structuredClone(next);
    invalid.remotes.blog!.active = '';
    expect(() => writeManifestAtomic(releasesDir, invalid)).toThrow(/invalid manifest/);
  });
});
