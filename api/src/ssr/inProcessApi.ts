import { inject } from 'light-my-request';
import type { IncomingMessage, ServerResponse } from 'node:http';
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
      const res = await inject(dispatchTo(apiApp), {
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

/**
 * light-my-request, handed an Express app, rewires the prototypes of the app's parent (here the whole site, which
 * mounts the API): every later request of the real server lost `res.status`. Handed a plain function it leaves
 * them alone, but Express then swaps the injected request's and response's prototypes for its own, losing
 * light-my-request's stream methods (empty bodies). Pinning those methods on the objects themselves keeps both.
 */
function dispatchTo(apiApp: Express) {
  const pinOwnMethods = (o: object) => {
    const proto = Object.getPrototypeOf(o) as object;
    for (const key of Object.getOwnPropertyNames(proto)) {
      const d = Object.getOwnPropertyDescriptor(proto, key);
      if (key !== 'constructor' && typeof d?.value === 'function') Object.defineProperty(o, key, { value: d.value, writable: true, configurable: true });
    }
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    pinOwnMethods(req);
    pinOwnMethods(res);
    (apiApp as unknown as (req: IncomingMessage, res: ServerResponse) => void)(req, res);
  };
}
