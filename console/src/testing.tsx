/** Test helpers: the console at an address, with fetch answering at the console API's shapes. */
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { vi } from 'vitest';
import { App } from './App';
import { SessionProvider } from './session';
import type { Person, Role } from './types';

export interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** An answer: a JSON body with 200, or `{ status, body }`. */
export type Reply = unknown | { status: number; body?: unknown };
type Handler = Reply | ((call: Call) => Reply);

const isStatus = (r: unknown): r is { status: number; body?: unknown } =>
  !!r && typeof r === 'object' && 'status' in r && typeof (r as { status: unknown }).status === 'number';

/**
 * Replaces fetch: `routes` maps "GET /api/..." or "POST /api/..." (the path with its query) to an answer. A call
 * nobody answers fails the test with a 404. Returns the calls made, in order.
 */
export function mockApi(routes: Record<string, Handler>): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init: RequestInit = {}) => {
      const call: Call = {
        method: init.method ?? 'GET',
        path,
        body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      };
      calls.push(call);
      const handler = routes[`${call.method} ${path}`];
      if (handler === undefined)
        return new Response(JSON.stringify({ error: `no mock for ${call.method} ${path}` }), { status: 404 });
      const reply = typeof handler === 'function' ? (handler as (c: Call) => Reply)(call) : handler;
      const { status, body } = isStatus(reply) ? reply : { status: 200, body: reply };
      return new Response(status === 204 || body === undefined ? null : JSON.stringify(body), { status });
    }),
  );
  return calls;
}

export function person(roles: Role[], name = 'Ada', id = 1): Person {
  return { id, name, roles, disabled: false };
}

/** The console at `url`, signed in as `who` (null: signed out), with `routes` answered. */
export function renderConsole(url: string, who: Person | null, routes: Record<string, Handler> = {}) {
  const calls = mockApi({
    'GET /api/auth/me': who ? { success: true, person: who } : { status: 401, body: { error: 'Not signed in.' } },
    ...routes,
  });
  const view = render(
    <MemoryRouter initialEntries={[url]}>
      <SessionProvider>
        <App />
      </SessionProvider>
    </MemoryRouter>,
  );
  return { calls, ...view };
}
