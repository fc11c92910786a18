import type { Server } from 'node:http';

/**
 * Listens on `port`, the value of the setting `setting`: resolves once listening, or rejects with a sentence naming
 * that setting (a port in use, a port the process may not open).
 */
export function listenOn(server: Server, port: number, setting: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const failed = (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE')
        reject(new Error(`port ${port} is already in use: set ${setting} to a free port, or stop what uses it`));
      else if (err.code === 'EACCES')
        reject(new Error(`port ${port} may not be opened by this user: set ${setting} to a port above 1023`));
      else reject(new Error(`could not listen on port ${port} (${setting}): ${err.message}`));
    };
    server.once('error', failed);
    server.listen(port, () => {
      server.off('error', failed);
      resolve(server);
    });
  });
}

/** The one line a failed start prints: what failed and, where known, the setting to change. */
export function startupFailure(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return `The server did not start: ${message.split('\n')[0]}`;
}
