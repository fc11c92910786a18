import { afterEach, describe, expect, it } from 'vitest';
import * as react from 'react';
import * as router from 'react-router-dom';
import * as zustand from 'zustand';
import { SHARED_PACKAGES, type SharedPackage } from '@aitools/platform/shared';
import { provideSharedPackages } from './shareScope';

type Entry = { get: () => Promise<() => Record<string, unknown>>; loaded: number };
const VERSIONS = { react: '19.2.0', 'react-dom': '19.2.0', 'react-router-dom': '7.18.6', zustand: '5.1.0' } as Record<
  SharedPackage,
  string
>;
const global = globalThis as { __federation_shared__?: Record<string, Record<string, Record<string, Entry>>> };
const scope = () => global.__federation_shared__!.default!;

afterEach(() => {
  delete global.__federation_shared__;
});

describe('the share scope the shell fills for remotes', () => {
  it('holds every shared package under its installed version, in the form a remote reads', async () => {
    provideSharedPackages(VERSIONS);
    expect(Object.keys(scope()).sort()).toEqual([...SHARED_PACKAGES].sort());
    for (const name of SHARED_PACKAGES) {
      expect(Object.keys(scope()[name]!)).toEqual([VERSIONS[name]]);
      expect(scope()[name]![VERSIONS[name]]!.loaded).toBe(1);
    }
    // A remote's importShared: `await (await entry.get())()`, the shell's own module, not a copy.
    const get = async (name: SharedPackage) => (await scope()[name]![VERSIONS[name]]!.get())();
    expect((await get('react')).useState).toBe(react.useState);
    expect((await get('react-router-dom')).createBrowserRouter).toBe(router.createBrowserRouter);
    expect(typeof (await get('react-dom')).createPortal).toBe('function');
    expect((await get('zustand')).create).toBe(zustand.create);
  });

  it("keeps what is already there: a second call, or a remote's init, replaces nothing", async () => {
    provideSharedPackages(VERSIONS);
    const first = scope().react![VERSIONS.react];
    provideSharedPackages(VERSIONS);
    expect(scope().react![VERSIONS.react]).toBe(first);
    expect(Object.keys(scope().react!)).toHaveLength(1);
  });
});
