import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startRemoteMcp, type RemoteMcp } from '../../test/remoteMcpServer';
import { DEFAULT_GUARD, type GuardOptions } from '../http/ssrfGuard';
import { checkHealth } from './health';

let remote: RemoteMcp;
const guard: GuardOptions = { ...DEFAULT_GUARD, allow: ['127.0.0.1'], timeoutMs: 5000 };
const target = () => ({ type: 'streamable-http' as const, url: remote.url });

beforeAll(async () => {
  remote = await startRemoteMcp();
});
afterAll(() => remote.close());

describe('checkHealth', () => {
  beforeEach(() => {
    remote.mode = 'mcp';
  });

  it('is healthy when initialize and tools/list answer, with the time they took', async () => {
    const result = await checkHealth(target(), guard, 5000);
    expect(result.status).toBe('healthy');
    expect(result.ms).toBeGreaterThanOrEqual(0);
  });

  it('needs sign-in on a 401, naming the authorization server of the protected resource metadata', async () => {
    remote.mode = 'sign-in';
    expect(await checkHealth(target(), guard, 5000)).toEqual({
      status: 'needs-sign-in',
      detail: 'signs in at https://auth.example.com',
    });
  });

  it('answers HTTP but not MCP when the address serves a web page', async () => {
    remote.mode = 'html';
    const result = await checkHealth(target(), guard, 5000);
    expect(result.status).toBe('not-mcp');
    expect(result.detail).toMatch(/^HTTP 200 \(text\/html\)/);
  });

  it('times out when the server accepts the connection and never answers', async () => {
    remote.mode = 'hang';
    const result = await checkHealth(target(), { ...guard, timeoutMs: 300 }, 300);
    expect(result.status).toBe('timed-out');
  });

  it('is unreachable when nothing listens, and when the guard refuses the address', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const gone = await checkHealth({ type: 'streamable-http', url: `http://127.0.0.1:${port}/mcp` }, guard, 5000);
    expect(gone.status).toBe('unreachable');
    expect(gone.detail).toContain('ECONNREFUSED');
    expect(await checkHealth(target(), DEFAULT_GUARD, 5000)).toEqual({
      status: 'unreachable',
      detail: 'refused: 127.0.0.1 is a loopback address (not on the allow-list)',
    });
  });
});
