import { createServer } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import type { Logger } from 'pino';
import { forwardToEmailMarketing } from './emailMarketing';

describe('forwardToEmailMarketing', () => {
  it('gives up after the timeout on a service that never answers, and only logs', async () => {
    const server = createServer(() => {
      /* never answers */
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    const logger = { warn: vi.fn() } as unknown as Logger;
    const timeout = vi.spyOn(AbortSignal, 'timeout');
    await expect(forwardToEmailMarketing(`http://127.0.0.1:${port}/`, 'a@b.co', logger, 100)).resolves.toBe(false);
    // The request carried the given timeout, and it is what ended the wait.
    expect(timeout).toHaveBeenCalledWith(100);
    timeout.mockRestore();
    expect(logger.warn).toHaveBeenCalledWith(
      expect.objectContaining({ err: expect.objectContaining({ name: 'TimeoutError' }) }),
      'email-marketing subscribe failed',
    );
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('reports an unreachable service as a failure without throwing', async () => {
    const logger = { warn: vi.fn() } as unknown as Logger;
    await expect(forwardToEmailMarketing('http://127.0.0.1:1/', 'a@b.co', logger)).resolves.toBe(false);
    expect(logger.warn).toHaveBeenCalled();
  });
});
