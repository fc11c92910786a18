import { inject } from 'light-my-request';
import type { Express } from 'express';
import type { JsonApi } from '@aitools/platform/contract';

/**
 * The API as loaders and actions see it on the server: the same Express routes the browser calls, run in process
 * (no loopback connection, no second request log line). The visitor's address goes with each call, so the write
 * limits count the visitor, not the server.
 */
export function inProcessApi(apiApp: Express, clientAddress: string | undefined): JsonApi {
  isolateForInject(apiApp);
  return {
    async fetchJson<T>(
      path: string,
      init?: { method?: 'GET' | 'POST'; body?: unknown; headers?: Record<string, string> },
    ) {
      const res = await inject(apiApp as unknown as Parameters<typeof inject>[0], {
        method: init?.method ?? 'GET',
        url: path,
        headers: {
          accept: 'application/json',
          ...(init?.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...init?.headers,
        },
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

const isolated = new WeakSet<Express>();

/**
 * light-my-request makes an Express app injectable by re-parenting the prototype ABOVE `app.request` and
 * `app.response` onto its own Request/Response. For a mounted app that level is the parent app's request (every
 * real request then breaks: `res.status is not a function`, `req._dump is not a function`); for a standalone app it
 * is Express's shared request/response module. So the app given here must never serve real requests, and gets
 * private copies of Express's request/response methods at that level for light-my-request to re-parent.
 */
function isolateForInject(app: Express): void {
  if (isolated.has(app)) return;
  isolated.add(app);
  for (const own of [app.request, app.response]) {
    const shared = Object.getPrototypeOf(own) as object;
    Object.setPrototypeOf(
      own,
      Object.create(Object.getPrototypeOf(shared) as object, Object.getOwnPropertyDescriptors(shared)),
    );
  }
}
