import { inject } from 'light-my-request';
import type { Express } from 'express';
import type { JsonApi } from '@aitools/platform/contract';

/**
 * The API as loaders and actions see it on the server: the same Express routes the browser calls, run in process
 * (no loopback connection, no second request log line). The visitor's address goes with each call, so the write
 * limits count the visitor, not the server.
 */
export function inProcessApi(apiApp: Express, clientAddress: string | undefined): JsonApi {
  return {
    async fetchJson<T>(path: string, init?: { method?: 'GET' | 'POST'; body?: unknown; headers?: Record<string, string> }) {
      const res = await inject(apiApp as unknown as Parameters<typeof inject>[0], {
        method: init?.method ?? 'GET',
        url: path,
        headers: { accept: 'application/json', ...(init?.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init?.headers },
        ...(init?.body !== undefined ? { payload: JSON.stringify(init.body) } : {}),
        remoteAddress: clientAddress ?? '127.0.0.1',
      });
      let body: T | null = null;
      try {
        body = JSON.parse(res.payload) as T;
      } catch {
        body = null;
      }
      return { ok: res.statusCode >= 200 && res.statusCode < 300, status: res.statusCode, body };
    },
  };
}
