/**
 * The console's calls to its own origin's JSON API. Errors come back as `{ error }` with a 4xx (the site's answer
 * shape); a 401 means the session ended, which the session provider turns into the sign-in screen.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The answer's JSON (a 409 carries the newer version there). */
    readonly body?: unknown,
  ) {
    super(message);
  }
}

let onUnauthorized: (() => void) | null = null;

/** Called on any 401 (the session expired, was signed out elsewhere, or the person was disabled). */
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  onUnauthorized = handler;
}

async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers:
      body === undefined
        ? { Accept: 'application/json' }
        : { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = res.status === 204 ? '' : await res.text();
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }
  if (!res.ok) {
    if (res.status === 401 && !path.startsWith('/api/auth/')) onUnauthorized?.();
    const message =
      data && typeof data === 'object' && typeof (data as { error?: unknown }).error === 'string'
        ? (data as { error: string }).error
        : `The server answered ${res.status}.`;
    throw new ApiError(res.status, message, data);
  }
  return data as T;
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T = unknown>(path: string, body: unknown = {}) => request<T>('POST', path, body),
};

/** A message to show for a failed call. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : 'Something went wrong.';
}
