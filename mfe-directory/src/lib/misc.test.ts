import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deobfuscateEmail, obfuscateEmail } from './email';
import { formatLastUpdated, isoDay } from './dates';
import { appendCapped, INTERACTIONS_KEY, MAX_INTERACTIONS, recordInteraction, sendPageView } from './interactions';
import { pruneExpired, saveScrollPosition, SCROLL_MAX_AGE_MS, takeScrollPosition } from './scrollMemory';
import { loadTool, loadToolList, readToolList } from './loadTools';
import { HOME_FAQ } from './homeFaq';

describe('email obfuscation', () => {
  it('writes name[at]domain[dot]tld and reads it back', () => {
    expect(obfuscateEmail('hello@aitools.example.com')).toBe('hello[at]aitools[dot]example[dot]com');
    expect(obfuscateEmail('first.last@x.io')).toBe('first.last[at]x[dot]io');
    expect(deobfuscateEmail('hello[at]aitools[dot]example[dot]com')).toBe('hello@aitools.example.com');
    expect(obfuscateEmail('not-an-email')).toBe('not-an-email');
  });
});

describe('dates', () => {
  it('formats last updated in long US form, the day as written', () => {
    expect(formatLastUpdated('2026-11-14')).toBe('November 14, 2026');
    expect(formatLastUpdated('2026-01-01')).toBe('January 1, 2026');
    expect(formatLastUpdated(undefined)).toBe('');
    expect(formatLastUpdated('not a date')).toBe('');
  });
  it('gives ISO days for structured data', () => {
    expect(isoDay('2026-11-14')).toBe('2026-11-14');
    expect(isoDay('garbage')).toBeUndefined();
  });
});

describe('interactions', () => {
  beforeEach(() => localStorage.clear());
  it('caps the list at 1000, dropping the oldest', () => {
    const full = Array.from({ length: MAX_INTERACTIONS }, (_, i) => i);
    const next = appendCapped(full, 1000);
    expect(next).toHaveLength(MAX_INTERACTIONS);
    expect(next[0]).toBe(1);
    expect(next.at(-1)).toBe(1000);
  });
  it('records toolName, action, category, timestamp and url', () => {
    recordInteraction('Cursor', 'view', 'Development');
    const [entry] = JSON.parse(localStorage.getItem(INTERACTIONS_KEY)!);
    expect(entry).toMatchObject({ toolName: 'Cursor', action: 'view', category: 'Development', url: window.location.href });
    expect(Number.isNaN(Date.parse(entry.timestamp))).toBe(false);
  });
  it('posts tool_page_view only when an analytics endpoint is configured', () => {
    const fetchMock = vi.fn().mockResolvedValue(new Response('{}'));
    vi.stubGlobal('fetch', fetchMock);
    sendPageView({ toolName: 'Cursor' });
    expect(fetchMock).not.toHaveBeenCalled();
    (window as unknown as { __APP_CONFIG__: object }).__APP_CONFIG__ = { analyticsEndpoint: '/api/events' };
    sendPageView({ toolName: 'Cursor' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/events');
    const body = JSON.parse(init.body);
    expect(body).toMatchObject({ event: 'tool_page_view', data: { toolName: 'Cursor' } });
    expect(Number.isNaN(Date.parse(body.timestamp))).toBe(false);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    delete (window as unknown as { __APP_CONFIG__?: object }).__APP_CONFIG__;
  });
});

describe('scroll memory', () => {
  beforeEach(() => localStorage.clear());
  it('saves x, y and timestamp per path and gives it back once', () => {
    saveScrollPosition('/?page=2', 0, 1234, 1000);
    expect(takeScrollPosition('/?page=2', 2000)).toEqual({ x: 0, y: 1234, timestamp: 1000 });
    expect(takeScrollPosition('/?page=2', 2000)).toBeNull();
  });
  it('discards positions older than 30 minutes', () => {
    saveScrollPosition('/', 0, 500, 0);
    expect(takeScrollPosition('/', SCROLL_MAX_AGE_MS + 1)).toBeNull();
    expect(pruneExpired({ a: { x: 0, y: 1, timestamp: 0 }, b: { x: 0, y: 2, timestamp: 100 } }, SCROLL_MAX_AGE_MS + 50)).toEqual({ b: { x: 0, y: 2, timestamp: 100 } });
  });
});

describe('reading the tool list', () => {
  it('accepts a tools array, a data array with success, or a bare array; tags normalised', () => {
    const item = { id: 1, name: 'Pi', slug: 'pi', description: 'd', website: 'https://pi.ai', tags: '{a, b}' };
    expect(readToolList({ tools: [item] })![0].tags).toEqual(['a', 'b']);
    expect(readToolList({ success: true, data: [item] })).toHaveLength(1);
    expect(readToolList([item])).toHaveLength(1);
  });
  it('rejects other shapes and drops items without name or slug', () => {
    expect(readToolList({ data: [] })).toBeNull();
    expect(readToolList({ success: false, data: [] })).toBeNull();
    expect(readToolList('nope')).toBeNull();
    expect(readToolList(null)).toBeNull();
    expect(readToolList([{ name: 'x' }, { slug: 'y' }])).toEqual([]);
  });
  it('falls back to the 5 built-in tools with the logged messages', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const http = await loadToolList(async () => ({ ok: false, status: 503, body: null }));
    expect(http.source).toBe('fallback');
    expect(http.tools).toHaveLength(5);
    expect(log).toHaveBeenCalledWith('HTTP error! status: 503');
    const invalid = await loadToolList(async () => ({ ok: true, status: 200, body: { nope: 1 } }));
    expect(invalid.source).toBe('fallback');
    expect(log).toHaveBeenCalledWith('API response format is invalid');
    const down = await loadToolList(async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(down.tools.map((t) => t.slug)).toEqual(http.tools.map((t) => t.slug));
    const ok = await loadToolList(async () => ({ ok: true, status: 200, body: { success: true, data: [] } }));
    expect(ok).toEqual({ tools: [], source: 'api' });
    log.mockRestore();
  });
  it('looks a tool up, searching the built-in list by slug on failure', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const found = await loadTool(async (p) => ({ ok: true, status: 200, body: { slug: 'x', name: 'X', path: p } }), 'x');
    expect(found.tool?.name).toBe('X');
    const fallback = await loadTool(async () => ({ ok: false, status: 500, body: null }), 'cursor');
    expect(fallback.tool?.name).toBe('Cursor');
    const missing = await loadTool(async () => ({ ok: false, status: 404, body: null }), 'nope');
    expect(missing).toEqual({ slug: 'nope', tool: null });
    log.mockRestore();
  });
});

describe('home FAQ', () => {
  it('has 20 entries naming the four pricing models', () => {
    expect(HOME_FAQ).toHaveLength(20);
    const text = HOME_FAQ.map((f) => f.answer).join(' ');
    for (const model of ['Free', 'Freemium', 'Subscription', 'One-time purchase']) expect(text).toContain(model);
  });
});
