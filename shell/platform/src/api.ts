import { getConfig, resolveApiUrl } from './config';

/** A JSON answer: `body` is the parsed JSON, or null when there is none. */
export type JsonResult<T> = { ok: boolean; status: number; body: T | null };

/** Browser JSON fetch: JSON headers, no credentials (docs/product.md, API calls). Throws on network failure only. */
export async function fetchJson<T = unknown>(path: string, init?: RequestInit): Promise<JsonResult<T>> {
  const res = await fetch(resolveApiUrl(path, getConfig()), {
    credentials: 'omit',
    ...init,
    headers: { Accept: 'application/json', 'Content-Type': 'application/json', ...(init?.headers ?? {}) },
  });
  return jsonResult<T>(res);
}

/** A response as { ok, status, body }: body is the parsed JSON, or null when there is none. */
export async function jsonResult<T>(res: Response): Promise<JsonResult<T>> {
  let body: T | null;
  try {
    body = (await res.json()) as T;
  } catch (err) {
    // A call aborted while its body arrives rejects, as one aborted before; only a body that is not JSON is none.
    if ((err as { name?: unknown } | null)?.name === 'AbortError') throw err;
    body = null;
  }
  return { ok: res.ok, status: res.status, body };
}

export function postJson<T = unknown>(path: string, payload: unknown) {
  return fetchJson<T>(path, { method: 'POST', body: JSON.stringify(payload) });
}
