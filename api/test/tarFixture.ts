/**
 * Archives for tests, written entry by entry with node-tar's own header encoder, so that a test can make what a
 * well-behaved packer never would (.. paths, links, devices).
 */
import { gzipSync } from 'node:zlib';
import { Header, type types } from 'tar';
import { CONTRACT_VERSION } from '@aitools/platform/contract';
import type { ReleaseDraft } from '../src/releases/manifest';
import { shellSharedVersions } from '../src/releases/build';

type EntryTypeName = types.EntryTypeName;

export interface FixtureEntry {
  path: string;
  type?: EntryTypeName;
  body?: string | Buffer;
  linkpath?: string;
}

export function makeTar(entries: FixtureEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const body = e.body === undefined ? Buffer.alloc(0) : Buffer.from(e.body);
    const type = e.type ?? 'File';
    const header = new Header({
      path: e.path,
      type,
      size: type === 'File' ? body.length : 0,
      mode: type === 'Directory' ? 0o755 : 0o644,
      mtime: new Date(0),
      linkpath: e.linkpath ?? '',
      uid: 0,
      gid: 0,
    });
    const block = Buffer.alloc(512);
    header.encode(block, 0);
    blocks.push(block);
    if (type === 'File' && body.length) blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

export const makeTgz = (entries: FixtureEntry[]): Buffer => gzipSync(makeTar(entries));

/** A legal release's server entry that renders its three routes. */
export const GOOD_ENTRY = `import { createElement } from 'react';
export default { remote: 'legal', routes: { './Privacy': { Component: () => createElement('p', null, 'hi') }, './Terms': { Component: () => null }, './Cookies': { Component: () => null } } };`;

/** release.json of a build that passes the checks. */
export function draft(over: Partial<ReleaseDraft> = {}): ReleaseDraft {
  return {
    id: '1.0.0-20261125T120000Z-abcdef12',
    remote: 'legal',
    version: '1.0.0',
    builtAt: '2026-11-25T12:00:00.000Z',
    sourceHash: 'f'.repeat(64),
    shared: shellSharedVersions(),
    contractVersion: CONTRACT_VERSION,
    ...over,
  };
}

/** A release folder's entries (client/, server/, release.json). */
export function releaseEntries(meta: ReleaseDraft | null = draft(), serverEntry = GOOD_ENTRY): FixtureEntry[] {
  return [
    { path: 'client/', type: 'Directory' },
    { path: 'client/remoteEntry.js', body: 'export const get = () => {};' },
    { path: 'client/style-abc.css', body: '.x{}' },
    { path: 'client/preload.json', body: JSON.stringify({ './Privacy': [], './Terms': [], './Cookies': [] }) },
    { path: 'server/', type: 'Directory' },
    { path: 'server/entry.mjs', body: serverEntry },
    ...(meta ? [{ path: 'release.json', body: JSON.stringify(meta) }] : []),
  ];
}
