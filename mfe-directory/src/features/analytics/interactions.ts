import { getConfig, readJson, writeJson } from '@aitools/platform';

/** Tool interactions kept locally (SPEC section 3), newest last, capped at 1000. */
export const INTERACTIONS_KEY = 'toolInteractions';
export const MAX_INTERACTIONS = 1000;

export interface ToolInteraction {
  toolName: string;
  action: string;
  category: string;
  timestamp: string;
  url: string;
}

export function appendCapped<T>(list: T[], item: T, cap = MAX_INTERACTIONS): T[] {
  const out = [...list, item];
  return out.length > cap ? out.slice(out.length - cap) : out;
}

export function recordInteraction(toolName: string, action: string, category: string | undefined): void {
  const list = readJson<ToolInteraction[]>(INTERACTIONS_KEY, []);
  const entry: ToolInteraction = {
    toolName,
    action,
    category: category ?? '',
    timestamp: new Date().toISOString(),
    url: window.location.href,
  };
  writeJson(INTERACTIONS_KEY, appendCapped(Array.isArray(list) ? list : [], entry));
}

/** Posts tool_page_view to the configured analytics endpoint (skipped when none); the answer is not used. */
export function sendPageView(data: Record<string, unknown>): void {
  const endpoint = getConfig().analyticsEndpoint;
  if (!endpoint) return;
  const body = JSON.stringify({ event: 'tool_page_view', data, timestamp: new Date().toISOString() });
  fetch(endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
    credentials: 'omit',
    keepalive: true,
  }).catch((err) => {
    console.warn('Analytics event not sent', err);
  });
}
