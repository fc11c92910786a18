import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appendCapped, INTERACTIONS_KEY, MAX_INTERACTIONS, recordInteraction, sendPageView } from './interactions';

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
    expect(entry).toMatchObject({
      toolName: 'Cursor',
      action: 'view',
      category: 'Development',
      url: window.location.href,
    });
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
