import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONTRACT_VERSION } from '@aitools/platform/contract';
import { Header } from 'tar';
import { draft, GOOD_ENTRY, makeTar, makeTgz, releaseEntries, type FixtureEntry } from '../../test/tarFixture';
import { checkArchive, maxInflatedBytes, unpackArchive, UploadError } from './upload';
import { shellSharedVersions } from './build';
import { activateStored, listReleases, storeUpload } from './store';
import { localStores } from './openReleaseStore';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'upload-test-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The refusal an archive gets, with the folder it would unpack into left empty. */
async function refusal(body: Buffer, limits = { maxFiles: 100, maxBytes: 100_000 }): Promise<UploadError> {
  const into = join(dir, 'into');
  const err = await unpackArchive(body, into, limits).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UploadError);
  // Nothing written: the entries are all checked before the unpacking pass starts.
  expect(existsSync(into) ? readdirSync(into) : []).toEqual([]);
  expect(readdirSync(dir).filter((f) => f !== 'into')).toEqual([]);
  return err as UploadError;
}

describe('release archives', () => {
  it('unpacks a release folder of plain files', async () => {
    const into = join(dir, 'into');
    await unpackArchive(makeTgz(releaseEntries()), into);
    expect(readFileSync(join(into, 'server', 'entry.mjs'), 'utf8')).toBe(GOOD_ENTRY);
    expect(readdirSync(into).sort()).toEqual(['client', 'release.json', 'server']);
  });

  it.each<[string, FixtureEntry, RegExp]>([
    ['a .. path', { path: 'client/../../escaped.js', body: 'x' }, /climbs out/],
    ['a leading ..', { path: '../escaped.js', body: 'x' }, /climbs out/],
    ['an absolute path', { path: '/tmp/escaped.js', body: 'x' }, /absolute path/],
    ['a symbolic link', { path: 'client/link.js', type: 'SymbolicLink', linkpath: '/etc/passwd' }, /symbolic link/],
    ['a hard link', { path: 'client/hard.js', type: 'Link', linkpath: 'client/remoteEntry.js' }, /hard link/],
    ['a character device', { path: 'client/dev', type: 'CharacterDevice' }, /CharacterDevice/],
    ['a block device', { path: 'client/blk', type: 'BlockDevice' }, /BlockDevice/],
    ['a FIFO', { path: 'client/fifo', type: 'FIFO' }, /FIFO/],
    ['a file outside client/ and server/', { path: 'node_modules/x.js', body: 'x' }, /outside client/],
  ])('refuses %s, writing nothing', async (_name, hostile, message) => {
    const err = await refusal(makeTgz([...releaseEntries(), hostile]));
    expect(err.status).toBe(400);
    expect(err.message).toMatch(message);
    expect(existsSync(join(dir, 'escaped.js'))).toBe(false);
  });

  it('refuses more entries than the limit (413)', async () => {
    const many = Array.from({ length: 20 }, (_, i) => ({ path: `client/f${i}.js`, body: 'x' }));
    const err = await refusal(makeTgz([...releaseEntries(), ...many]), { maxFiles: 10, maxBytes: 1_000_000 });
    expect(err.status).toBe(413);
    expect(err.message).toMatch(/more than 10 entries/);
  });

  it('refuses more unpacked bytes than the limit (413), a well-compressed body included', async () => {
    const err = await refusal(
      makeTgz([...releaseEntries(), { path: 'client/big.js', body: Buffer.alloc(200_000, 'a') }]),
      { maxFiles: 100, maxBytes: 100_000 },
    );
    expect(err.status).toBe(413);
    expect(err.message).toMatch(/more than 100000 bytes/);
  });

  it('refuses a body that is not gzip, gzip that is not a tar, and broken gzip (400)', async () => {
    expect((await refusal(Buffer.from('PK\u0003\u0004 a zip file'))).message).toMatch(/not gzip/);
    expect((await refusal(gzipSync(Buffer.from('just some text, not a tar archive at all'.repeat(20))))).status).toBe(
      400,
    );
    const good = makeTgz(releaseEntries());
    const broken = Buffer.concat([good.subarray(0, 10), Buffer.alloc(200, 7)]);
    expect((await refusal(broken)).status).toBe(400);
    expect((await refusal(gzipSync(Buffer.alloc(0)))).status).toBe(400);
  });

  it('refuses a body that inflates past the limits, whatever the entries declare (413)', async () => {
    // A long-name (pax) header is no entry and counts against no declared size: only the inflated bytes bound it.
    const limits = { maxFiles: 100, maxBytes: 100_000 };
    const size = maxInflatedBytes(limits) + 1024;
    const block = Buffer.alloc(512);
    new Header({ path: 'PaxHeader/x', type: 'ExtendedHeader', size, mode: 0o644, mtime: new Date(0) }).encode(block, 0);
    const pax = Buffer.concat([block, Buffer.alloc(Math.ceil(size / 512) * 512, 'a')]);
    const err = await refusal(gzipSync(Buffer.concat([pax, makeTar(releaseEntries())])), limits);
    expect(err.status).toBe(413);
    expect(err.message).toMatch(/inflates to more than \d+ bytes/);
  });

  it('refuses a gzip inside the gzip (400)', async () => {
    const err = await refusal(gzipSync(makeTgz(releaseEntries())));
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/compressed twice/);
  });

  it('checkArchive counts without writing', async () => {
    expect(await checkArchive(makeTgz(releaseEntries()))).toMatchObject({ files: 7 });
  });
});

describe('storing an upload', () => {
  const releasesDir = () => join(dir, 'releases');
  const at = () => ({ ...localStores(releasesDir()), by: 'legal-ci' });
  const stored = () => (existsSync(join(releasesDir(), 'legal')) ? readdirSync(join(releasesDir(), 'legal')) : []);
  const staging = () =>
    existsSync(join(releasesDir(), '.staging')) ? readdirSync(join(releasesDir(), '.staging')) : [];

  it('stores a checked upload without activating it, then activates it under the token label', async () => {
    const meta = await storeUpload('legal', makeTgz(releaseEntries()), at());
    expect(meta).toMatchObject({ id: draft().id, releasedBy: 'legal-ci', css: ['style-abc.css'] });
    expect(meta.files?.['server/entry.mjs']).toMatch(/^[0-9a-f]{64}$/);
    expect(stored()).toEqual([draft().id]);
    expect(staging()).toEqual([]);
    expect((await listReleases(at(), 'legal'))[0]?.active).toBe(false);
    await activateStored('legal', meta.id, at());
    const state = at().manifests.read().manifest.remotes.legal;
    expect(state?.active).toBe(meta.id);
    expect(state?.history.at(-1)).toMatchObject({ action: 'release', id: meta.id, by: 'legal-ci' });
  });

  it('refuses a release id that exists already (409), and keeps the first', async () => {
    await storeUpload('legal', makeTgz(releaseEntries()), at());
    const err = await storeUpload('legal', makeTgz(releaseEntries(draft(), GOOD_ENTRY + '\n// other')), at()).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ status: 409 });
    expect(stored()).toEqual([draft().id]);
    expect(staging()).toEqual([]);
  });

  it('refuses compressed padding after the end of the archive within a record of its end, storing nothing', async () => {
    // ~17 kB of gzip: a release, then 16 MB of zero bytes that no entry declares. With limits that inflate to about
    // 1 MB, the padding rule's 400 shows the inflating stopped within a record of the end; had it gone on, the size
    // limit's 413 would have come first. How long the refusal takes and how long it holds the event loop are bench
    // figures: cd tests && pnpm exec tsx bench/uploadBomb.bench.ts.
    const bomb = gzipSync(Buffer.concat([makeTar(releaseEntries()), Buffer.alloc(16 * 1024 * 1024)]));
    const limits = { maxFiles: 100, maxBytes: 1024 * 1024 };
    expect(maxInflatedBytes(limits)).toBeLessThan(2 * 1024 * 1024);
    const err = await storeUpload('legal', bomb, { ...at(), limits }).catch((e: unknown) => e);
    expect(err).toMatchObject({
      status: 400,
      message: expect.stringMatching(/goes on after its end-of-archive marker/),
    });
    expect(stored()).toEqual([]);
    expect(staging()).toEqual([]);
  });

  it('accepts the zero padding tar writes to a whole record after the end of the archive', async () => {
    const tar = makeTar(releaseEntries());
    const padded = Buffer.concat([tar, Buffer.alloc((10240 - (tar.length % 10240)) % 10240)]);
    expect((await storeUpload('legal', gzipSync(padded), at())).id).toBe(draft().id);
  });

  it('says what is wrong with release.json without naming a server path', async () => {
    for (const [entries, reason] of [
      [releaseEntries(null), /\(the archive has no release\.json\)/],
      [[...releaseEntries(null), { path: 'release.json/', type: 'Directory' }], /not a readable JSON file/],
      [[...releaseEntries(null), { path: 'release.json', body: '{"id":' }], /not a readable JSON file/],
    ] as [FixtureEntry[], RegExp][]) {
      const err = (await storeUpload('legal', makeTgz(entries), at()).catch((e: unknown) => e)) as UploadError;
      expect(err).toMatchObject({ status: 400, message: expect.stringMatching(reason) });
      expect(err.message).not.toMatch(/ENOENT|EISDIR|\/tmp|staging|upload-legal/);
      expect(err.message).not.toContain(releasesDir());
    }
    expect(stored()).toEqual([]);
  });

  it('stores builtAt as toISOString writes it', async () => {
    const meta = await storeUpload(
      'legal',
      makeTgz(releaseEntries(draft({ builtAt: '2026-11-25T13:00:00+01:00' }))),
      at(),
    );
    expect(meta.builtAt).toBe('2026-11-25T12:00:00.000Z');
  });

  it.each<[string, Buffer, number, RegExp]>([
    ['no release.json', makeTgz(releaseEntries(null)), 400, /release\.json is missing or invalid/],
    [
      'a builtAt in the future',
      makeTgz(releaseEntries(draft({ builtAt: '9999-12-31T23:59:59.000Z' }))),
      400,
      /builtAt: later than now/,
    ],
    [
      'a builtAt more than the clock skew ahead',
      makeTgz(releaseEntries(draft({ builtAt: new Date(Date.now() + 10 * 60_000).toISOString() }))),
      400,
      /builtAt: later than now/,
    ],
    ['a builtAt that is no date', makeTgz(releaseEntries(draft({ builtAt: 'zzz' }))), 400, /builtAt: not an RFC 3339/],
    [
      'a builtAt that is no real day',
      makeTgz(releaseEntries(draft({ builtAt: '2026-02-30T12:00:00Z' }))),
      400,
      /builtAt: not an RFC 3339/,
    ],
    ['another remote', makeTgz(releaseEntries(draft({ remote: 'blog' }))), 400, /release of blog, uploaded as legal/],
    [
      'another route contract',
      makeTgz(releaseEntries(draft({ contractVersion: CONTRACT_VERSION + 1 }))),
      422,
      /route contract/,
    ],
    [
      'shared ranges the shell does not satisfy',
      makeTgz(releaseEntries(draft({ shared: { ...shellSharedVersions(), react: '^17.0.0' } }))),
      422,
      /shared dependencies/,
    ],
    [
      'a server entry that does not load',
      makeTgz(releaseEntries(draft(), 'export default {')),
      422,
      /server entry does not load/,
    ],
    ['a hostile entry', makeTgz([...releaseEntries(), { path: '../../../outside.txt', body: 'x' }]), 400, /climbs out/],
  ])('refuses %s and stores nothing', async (_name, body, status, message) => {
    const err = await storeUpload('legal', body, at()).catch((e: unknown) => e);
    expect(err).toMatchObject({ status, message: expect.stringMatching(message) });
    expect(stored()).toEqual([]);
    expect(staging()).toEqual([]);
    expect(existsSync(join(dir, 'outside.txt'))).toBe(false);
  });
});
