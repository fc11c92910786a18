import type { HydrationState } from 'react-router-dom';
import { ChunkLoadError, isChunkLoadError, type ChunkLoadErrorType } from './ChunkLoadError';
import type { RemoteManifest } from './manifest';

/** What the server writes into the page (script#__PAGE_STATE__) and the browser reads before hydrating. */
export interface PageState {
  /** The releases the page was rendered with; the browser loads exactly these. */
  releases: RemoteManifest;
  /** React Router's state after the server ran the loaders (and action): the browser hydrates from it. */
  router: SerializedHydration;
  /** remote -> the token the visitor's error reports about that remote's release carry (remotes/signals.ts). */
  signals?: Record<string, string>;
  /** Run-time configuration for the platform SDK. */
  config?: object;
  /** Routes the server did not render (by route id: 'timeout', 'breaker-open' or 'error'); the browser renders
   *  them from scratch. */
  notRendered?: Record<string, string>;
}

export interface SerializedError {
  name: string;
  message: string;
  chunkId?: string;
  type?: ChunkLoadErrorType;
  request?: string;
  status?: number;
  statusText?: string;
}

export interface SerializedHydration {
  loaderData: Record<string, unknown>;
  actionData?: Record<string, unknown> | null;
  errors?: Record<string, SerializedError> | null;
}

export const PAGE_STATE_ID = '__PAGE_STATE__';

/** Route errors as plain JSON: never a stack or a server path. */
export function serializeErrors(
  errors: Record<string, unknown> | null | undefined,
): Record<string, SerializedError> | null {
  if (!errors) return null;
  const out: Record<string, SerializedError> = {};
  for (const [id, err] of Object.entries(errors)) {
    if (isChunkLoadError(err))
      out[id] = {
        name: 'ChunkLoadError',
        message: err.message,
        chunkId: err.chunkId,
        type: err.type,
        request: err.request,
      };
    else if (err && typeof err === 'object' && 'status' in err) {
      const r = err as { status: number; statusText?: string };
      out[id] = {
        name: 'RouteErrorResponse',
        message: r.statusText ?? '',
        status: r.status,
        statusText: r.statusText ?? '',
      };
    } else out[id] = { name: 'Error', message: 'The page could not be rendered.' };
  }
  return out;
}

export function reviveErrors(errors: Record<string, SerializedError> | null | undefined): HydrationState['errors'] {
  if (!errors) return null;
  const out: Record<string, unknown> = {};
  for (const [id, e] of Object.entries(errors)) {
    if (e.name === 'ChunkLoadError' && e.chunkId && e.type)
      out[id] = new ChunkLoadError(e.chunkId, e.type, e.request ?? '');
    // The shape React Router's isRouteErrorResponse recognises.
    else if (typeof e.status === 'number')
      out[id] = { status: e.status, statusText: e.statusText ?? '', internal: false, data: null };
    else out[id] = new Error(e.message);
  }
  return out;
}
