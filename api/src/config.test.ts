import express from 'express';
import { describe, expect, it } from 'vitest';
import { canonicalUrl } from '@aitools/platform/head-tags';
import { loadConfig, parseTrustProxy } from './config';
import { versionsSettings } from './jobs/versionsJob';

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['true', true],
    ['loopback', 'loopback'],
    ['10.0.0.0/8, 172.16.0.0/12 ,loopback', '10.0.0.0/8,172.16.0.0/12,loopback'],
  ])('%j means %j', (raw, expected) => {
    expect(parseTrustProxy(raw)).toBe(expected);
  });

  it('is off by default, and Express accepts every parsed form (and refuses a bad address at start-up)', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    const app = express();
    for (const v of ['1', 'loopback', '10.0.0.0/8,::1', 'uniquelocal'])
      expect(() => app.set('trust proxy', parseTrustProxy(v))).not.toThrow();
    expect(() => app.set('trust proxy', parseTrustProxy('not-an-address'))).toThrow();
  });
});

describe('SITE_ORIGIN', () => {
  it('defaults to the address a plain start serves (http://localhost:<PORT>), so local preview links open', () => {
    expect(loadConfig({ PORT: '9123' }).siteOrigin).toBe('http://localhost:9123');
    expect(loadConfig({}).siteOrigin).toBe('http://localhost:8080');
    // Canonical links stay https whatever the origin's scheme.
    expect(canonicalUrl(loadConfig({}).siteOrigin, '/blog')).toBe('https://localhost:8080/blog');
    expect(loadConfig({ SITE_ORIGIN: 'https://dir.example' }).siteOrigin).toBe('https://dir.example');
  });
});

describe('limits', () => {
  it('has defaults and refuses values that are not positive whole numbers', () => {
    expect(loadConfig({})).toMatchObject({
      writeRateLimit: 20,
      eventsRateLimit: 120,
      readRateLimit: 120,
      eventsMaxRows: 100_000,
      eventsMaxAgeDays: 90,
    });
    expect(() => loadConfig({ WRITE_RATE_LIMIT: 'lots' })).toThrow(
      'WRITE_RATE_LIMIT must be a positive whole number, got "lots"',
    );
    expect(() => loadConfig({ EVENTS_MAX_ROWS: '0' })).toThrow('EVENTS_MAX_ROWS');
  });
});

describe('SEARCH_MEANING', () => {
  it('is on by default, on or off when set, and refuses anything else at start-up', () => {
    expect(loadConfig({}).searchMeaning).toBe(true);
    expect(loadConfig({ SEARCH_MEANING: 'off' }).searchMeaning).toBe(false);
    expect(loadConfig({ SEARCH_MEANING: 'on' }).searchMeaning).toBe(true);
    expect(() => loadConfig({ SEARCH_MEANING: 'no' })).toThrow('SEARCH_MEANING must be on or off, got "no"');
  });
});

describe('PURGE_URLS', () => {
  it('is none by default, a comma list of http(s) URLs, and refuses anything else at start-up', () => {
    expect(loadConfig({}).purgeUrls).toEqual([]);
    expect(loadConfig({ PURGE_URLS: 'http://varnish-a:6081/, https://varnish-b/' }).purgeUrls).toEqual([
      'http://varnish-a:6081/',
      'https://varnish-b/',
    ]);
    expect(() => loadConfig({ PURGE_URLS: 'varnish:6081' })).toThrow(
      'PURGE_URLS must be comma-separated http(s) URLs, got "varnish:6081"',
    );
  });
});

describe('the upstream sync settings', () => {
  it('reads REGISTRY_UPSTREAMS and the limits, with their defaults, and refuses what it cannot use', () => {
    expect(loadConfig({}).registrySync).toEqual({
      upstreams: [],
      pagesPerRun: 20,
      timeoutMs: 30_000,
      maxBytes: 4 * 1024 * 1024,
      allow: [],
    });
    expect(
      loadConfig({
        REGISTRY_UPSTREAMS: 'https://registry.modelcontextprotocol.io, http://mirror.example:8080',
        REGISTRY_SYNC_PAGES: '200',
        REGISTRY_SYNC_TIMEOUT_SECONDS: '5',
        REGISTRY_SYNC_PAGE_BYTES: '1000000',
        OUTBOUND_ALLOW: 'mirror.example, 10.1.0.0/16',
      }).registrySync,
    ).toEqual({
      upstreams: ['https://registry.modelcontextprotocol.io', 'http://mirror.example:8080'],
      pagesPerRun: 200,
      timeoutMs: 5000,
      maxBytes: 1_000_000,
      allow: ['mirror.example', '10.1.0.0/16'],
    });
    expect(() => loadConfig({ REGISTRY_UPSTREAMS: 'registry.example' })).toThrow(
      'REGISTRY_UPSTREAMS must be comma-separated http(s) URLs, got "registry.example"',
    );
    expect(() => loadConfig({ REGISTRY_SYNC_PAGES: '0' })).toThrow(
      'REGISTRY_SYNC_PAGES must be a positive whole number, got "0"',
    );
  });
});

describe('the npm registry', () => {
  it('is one setting, NPM_REGISTRY_URL, for the inspections and the versions job; its old second name is refused', () => {
    const config = loadConfig({ NPM_REGISTRY_URL: 'http://npm.internal:4873/' });
    expect(config.inspection.npmRegistry).toBe('http://npm.internal:4873');
    expect(versionsSettings(config)).toEqual({ npmRegistry: 'http://npm.internal:4873', pypi: 'https://pypi.org' });
    expect(() => loadConfig({ INSPECT_NPM_REGISTRY: 'http://npm.internal:4873/' })).toThrow(
      'INSPECT_NPM_REGISTRY is now NPM_REGISTRY_URL (one npm registry for inspections and versions)',
    );
  });
});

describe('the inspection sandbox`s settings', () => {
  it('has defaults, reads each INSPECT_ variable, and refuses a registry that is not an http(s) URL', () => {
    expect(loadConfig({}).inspection).toEqual({
      npmRegistry: 'https://registry.npmjs.org',
      bwrap: 'bwrap',
      timeoutMs: 120_000,
      outputBytes: 8 * 1024 * 1024,
      memoryMb: 2560,
      processes: 64,
      cpuSeconds: 60,
      filesMb: 64,
    });
    expect(
      loadConfig({
        NPM_REGISTRY_URL: 'http://127.0.0.1:4873/',
        INSPECT_BWRAP: '/opt/bwrap',
        INSPECT_TIMEOUT_SECONDS: '30',
        INSPECT_OUTPUT_BYTES: '1024',
        INSPECT_MEMORY_MB: '2048',
        INSPECT_PROCESSES: '32',
        INSPECT_CPU_SECONDS: '10',
        INSPECT_FILES_MB: '16',
      }).inspection,
    ).toEqual({
      npmRegistry: 'http://127.0.0.1:4873',
      bwrap: '/opt/bwrap',
      timeoutMs: 30_000,
      outputBytes: 1024,
      memoryMb: 2048,
      processes: 32,
      cpuSeconds: 10,
      filesMb: 16,
    });
    expect(() => loadConfig({ NPM_REGISTRY_URL: 'file:///etc' })).toThrow(/NPM_REGISTRY_URL must be an http/);
    expect(() => loadConfig({ INSPECT_PROCESSES: '0' })).toThrow(/INSPECT_PROCESSES must be a positive whole number/);
  });
});
