import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { listenOn, startupFailure } from './listen';

const open: { close(): unknown }[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

const taken = async (): Promise<number> => {
  const holder: NetServer = createNetServer();
  open.push(holder);
  await new Promise<void>((r) => holder.listen(0, r));
  return (holder.address() as { port: number }).port;
};

describe('listenOn', () => {
  it('resolves once listening', async () => {
    const server = createServer();
    open.push(server);
    await expect(listenOn(server, 0, 'PORT')).resolves.toBe(server);
    expect(server.listening).toBe(true);
  });

  it('rejects a port in use with one sentence naming the setting to change', async () => {
    const port = await taken();
    const server = createServer();
    const failure = await listenOn(server, port, 'CONSOLE_PORT').catch((err: unknown) => err);
    expect(startupFailure(failure)).toBe(
      `The server did not start: port ${port} is already in use: set CONSOLE_PORT to a free port, or stop what uses it`,
    );
  });
});

describe('startupFailure', () => {
  it('is one line, whatever was thrown', () => {
    expect(startupFailure(new Error('WRITE_RATE_LIMIT must be a positive whole number, got "x"\n    at stack'))).toBe(
      'The server did not start: WRITE_RATE_LIMIT must be a positive whole number, got "x"',
    );
    expect(startupFailure('plain')).toBe('The server did not start: plain');
  });
});
