export type ChunkLoadErrorType = 'missing' | 'timeout' | 'error';

/** Raised for any failure to load a remote's code (docs/product.md, Error screens). */
export class ChunkLoadError extends Error {
  override readonly name = 'ChunkLoadError';
  constructor(
    readonly chunkId: string,
    readonly type: ChunkLoadErrorType,
    /** The address that was requested. */
    readonly request: string,
    options?: { cause?: unknown },
  ) {
    super(`Loading chunk ${chunkId} failed.`, options);
  }
}

export function isChunkLoadError(err: unknown): err is ChunkLoadError {
  return err instanceof ChunkLoadError || (err as Error | undefined)?.name === 'ChunkLoadError';
}
