import type { ComponentType } from 'react';
import { ChunkLoadError, isChunkLoadError } from './ChunkLoadError';
import type { RemoteManifest } from './manifest';
import { importExposed } from './federation';

/** SPEC section 9: chunk load timeout. A server that accepts and never answers raises nothing by itself. */
const CHUNK_TIMEOUT_MS = 120_000;

export interface LoadOptions {
  manifest: RemoteManifest;
  /** 0 for the first load; each "Try again" counts up and loads the release under a fresh address (see below). */
  attempt?: number;
  timeoutMs?: number;
  importer?: (remote: string, entryUrl: string, exposed: string) => Promise<unknown>;
  /** Tells a missing file (404) from other failures after an import failed. */
  probe?: (url: string) => Promise<number | null>;
  linkCss?: (hrefs: string[]) => Promise<void>;
}

export function chunkId(remote: string, exposed: string): string {
  return `${remote}/${exposed.replace(/^\.\//, '')}`;
}

async function probeStatus(url: string): Promise<number | null> {
  try {
    const res = await fetch(url, { method: 'HEAD', cache: 'no-store' });
    return res.status;
  } catch {
    return null;
  }
}

/**
 * Links a remote's stylesheets (once) and waits for them, so its server HTML or first render is never unstyled.
 * A server-rendered page carries its remote's stylesheet inline, named by data-href (api/src/ssr/inlineStyles.ts).
 */
export function linkStylesheets(hrefs: string[]): Promise<void> {
  return Promise.all(
    hrefs.map(
      (href) =>
        new Promise<void>((resolve) => {
          const existing = document.querySelector(
            `link[rel="stylesheet"][href="${CSS.escape(href)}"], style[data-href="${CSS.escape(href)}"]`,
          );
          if (existing) return resolve();
          const link = document.createElement('link');
          link.rel = 'stylesheet';
          link.href = href;
          link.onload = link.onerror = () => resolve();
          document.head.appendChild(link);
        }),
    ),
  ).then(() => undefined);
}

function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Why a retry loads the release under a new address: a module fetch that failed once may stay failed for the life
 * of the page. Browsers keep failed entries in their module map (Chromium 150 did for the entry's imports and for
 * failed `modulepreload`s; 156 does not), and the federation entry memoises each exposed chunk's import promise,
 * rejection included. So importing the same URLs again can never reach the network. The server serves every
 * release also under `<release>/retry/<token>/`, with the entry's absolute chunk addresses rewritten to that
 * prefix; the entry and every chunk it imports are then new URLs, in every browser. Once a retry address works,
 * the remote keeps it for the rest of the page's life (one module instance per remote).
 * If that still fails, the boundary offers a full reload.
 */
export function retryEntryUrl(entry: string, token: string): string {
  const cut = entry.lastIndexOf('/') + 1;
  return `${entry.slice(0, cut)}retry/${token}/${entry.slice(cut)}`;
}

/** Entry address that last loaded for each remote release (after a successful retry, its retry address). */
const workingEntry = new Map<string, string>();

/** Loads one exposed module of a remote; every failure comes out as a ChunkLoadError. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a remote's module is known only to its caller
export async function loadRemoteModule<T = ComponentType<any>>(
  remote: string,
  exposed: string,
  opts: LoadOptions,
): Promise<T> {
  const id = chunkId(remote, exposed);
  const release = opts.manifest[remote];
  if (!release) throw new ChunkLoadError(id, 'missing', `remote:${remote}`);
  const importer = opts.importer ?? importExposed;
  const attempt = opts.attempt ?? 0;
  const entry =
    attempt > 0
      ? retryEntryUrl(release.entry, `${attempt}-${Date.now().toString(36)}`)
      : (workingEntry.get(release.entry) ?? release.entry);
  try {
    const load = async () => {
      await (opts.linkCss ?? linkStylesheets)(release.css);
      return (await importer(remote, entry, exposed)) as T;
    };
    const mod = await withTimeout(
      load(),
      opts.timeoutMs ?? CHUNK_TIMEOUT_MS,
      () => new ChunkLoadError(id, 'timeout', entry),
    );
    if (mod === undefined || mod === null) throw new ChunkLoadError(id, 'missing', entry);
    workingEntry.set(release.entry, entry);
    return mod;
  } catch (err) {
    if (isChunkLoadError(err)) throw err;
    const status = await (opts.probe ?? probeStatus)(entry);
    throw new ChunkLoadError(id, status === 404 || status === 410 ? 'missing' : 'error', entry, { cause: err });
  }
}
