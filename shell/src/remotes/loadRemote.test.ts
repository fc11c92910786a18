import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChunkLoadError, isChunkLoadError } from './ChunkLoadError';
import { chunkId, loadRemoteModule, retryEntryUrl } from './loadRemote';

vi.mock('./federation', () => ({ importExposed: vi.fn() }));

const manifest = {
  legal: { id: 'r1', entry: '/remotes/legal/r1/remoteEntry.js', css: ['/remotes/legal/r1/style.css'] },
};
const noCss = async () => {};

afterEach(() => {
  vi.useRealTimers();
});

describe('ChunkLoadError', () => {
  it('has the name, message, type and request address of SPEC section 8', () => {
    const err = new ChunkLoadError('legal/Privacy', 'timeout', '/x.js');
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('ChunkLoadError');
    expect(err.message).toBe('Loading chunk legal/Privacy failed.');
    expect(err.type).toBe('timeout');
    expect(err.request).toBe('/x.js');
    expect(isChunkLoadError(err)).toBe(true);
    expect(isChunkLoadError(new Error('x'))).toBe(false);
  });
});

describe('loadRemoteModule', () => {
  it('loads the exposed module after linking the release stylesheets', async () => {
    const order: string[] = [];
    const Component = () => null;
    const mod = await loadRemoteModule('legal', './Privacy', {
      manifest,
      linkCss: async (hrefs) => void order.push(`css:${hrefs.join(',')}`),
      importer: async (remote, url, exposed) => {
        order.push(`import:${remote}:${url}:${exposed}`);
        return Component;
      },
    });
    expect(mod).toBe(Component);
    expect(order).toEqual([
      'css:/remotes/legal/r1/style.css',
      'import:legal:/remotes/legal/r1/remoteEntry.js:./Privacy',
    ]);
  });

  it('raises a missing ChunkLoadError for a remote the manifest does not name', async () => {
    const err = await loadRemoteModule('blog', './BlogList', { manifest, linkCss: noCss, importer: vi.fn() }).catch(
      (e) => e,
    );
    expect(err).toMatchObject({
      name: 'ChunkLoadError',
      type: 'missing',
      message: 'Loading chunk blog/BlogList failed.',
    });
  });

  it('classifies a failed import: 404 is missing, anything else is error', async () => {
    const failing = async () => {
      throw new TypeError('Failed to fetch dynamically imported module');
    };
    const missing = await loadRemoteModule('legal', './Terms', {
      manifest,
      linkCss: noCss,
      importer: failing,
      probe: async () => 404,
    }).catch((e) => e);
    expect(missing).toMatchObject({
      name: 'ChunkLoadError',
      type: 'missing',
      request: '/remotes/legal/r1/remoteEntry.js',
    });
    expect(missing.cause).toBeInstanceOf(TypeError);
    const down = await loadRemoteModule('legal', './Terms', {
      manifest,
      linkCss: noCss,
      importer: failing,
      probe: async () => null,
    }).catch((e) => e);
    expect(down).toMatchObject({ type: 'error' });
    const broken = await loadRemoteModule('legal', './Terms', {
      manifest,
      linkCss: noCss,
      importer: failing,
      probe: async () => 200,
    }).catch((e) => e);
    expect(broken).toMatchObject({ type: 'error' });
  });

  it('times out after 120 s when the server never answers', async () => {
    vi.useFakeTimers();
    const never = () => new Promise<never>(() => {});
    const p = loadRemoteModule('legal', './Privacy', { manifest, linkCss: noCss, importer: never }).catch((e) => e);
    await vi.advanceTimersByTimeAsync(120_000 - 1); // SPEC section 9: chunk load timeout 120,000 ms
    let settled = false;
    void p.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const err = await p;
    expect(err).toMatchObject({
      name: 'ChunkLoadError',
      type: 'timeout',
      request: '/remotes/legal/r1/remoteEntry.js',
      message: 'Loading chunk legal/Privacy failed.',
    });
  });

  it('retries under a fresh address each time, and keeps the address that worked', async () => {
    const urls: string[] = [];
    const m = { shop: { id: 'r9', entry: '/remotes/shop/r9/remoteEntry.js', css: [] } };
    let up = false;
    const importer = async (_r: string, url: string) => {
      urls.push(url);
      if (!up) throw new TypeError('Failed to fetch dynamically imported module');
      return () => null;
    };
    const first = await loadRemoteModule('shop', './A', {
      manifest: m,
      linkCss: noCss,
      importer,
      probe: async () => null,
    }).catch((e) => e);
    expect(first).toMatchObject({ type: 'error', request: '/remotes/shop/r9/remoteEntry.js' });
    const second = await loadRemoteModule('shop', './A', {
      manifest: m,
      attempt: 1,
      linkCss: noCss,
      importer,
      probe: async () => null,
    }).catch((e) => e);
    expect(second.request).toMatch(/^\/remotes\/shop\/r9\/retry\/1-[\w]+\/remoteEntry\.js$/);
    up = true;
    await loadRemoteModule('shop', './A', { manifest: m, attempt: 2, linkCss: noCss, importer });
    expect(urls[2]).toMatch(/^\/remotes\/shop\/r9\/retry\/2-\w+\/remoteEntry\.js$/);
    expect(new Set(urls).size).toBe(3);
    // Later modules of the same release load from the address that worked, not the one that failed.
    await loadRemoteModule('shop', './B', { manifest: m, linkCss: noCss, importer });
    expect(urls[3]).toBe(urls[2]);
  });

  it('puts the retry token between the release folder and the file', () => {
    expect(retryEntryUrl('/remotes/legal/1.0.0-x/remoteEntry.js', 'a1')).toBe(
      '/remotes/legal/1.0.0-x/retry/a1/remoteEntry.js',
    );
  });

  it('names chunks remote/module', () => {
    expect(chunkId('directory', './ToolDetail')).toBe('directory/ToolDetail');
  });
});
