import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_GUARD, guardedFetch, notPublic, RefusedRequest, type GuardOptions } from './ssrfGuard';

let server: Server;
let port = 0;
let requests: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === '/to-loopback') return res.writeHead(302, { location: `http://127.0.0.1:${port}/inside` }).end();
    if (req.url === '/to-named') return res.writeHead(307, { location: `http://named.test:${port}/inside` }).end();
    if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
    if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      // Sent in chunks without a length: the bound counts what arrives.
      for (let i = 0; i < 64; i++) res.write(Buffer.alloc(16 * 1024, 97));
      return res.end();
    }
    if (req.url === '/declared-big') return res.writeHead(200, { 'content-length': String(10 * 1024 * 1024) }).end();
    if (req.url === '/hang') return; // never answers
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`hello ${req.method}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const guard = (extra: Partial<GuardOptions> = {}) => guardedFetch({ ...DEFAULT_GUARD, ...extra });
/** A resolver that answers from a table, counting its lookups. */
function resolver(table: Record<string, string[]>) {
  const calls: string[] = [];
  const resolve = async (host: string) => {
    calls.push(host);
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, calls };
}

describe('notPublic', () => {
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['::1', 'a loopback address'],
    ['10.1.2.3', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['169.254.169.254', 'a link-local address'],
    ['fe80::1', 'a link-local address'],
    ['fd00::1', 'a unique-local address'],
    ['224.0.0.1', 'a multicast address'],
    ['ff02::1', 'a multicast address'],
    ['0.0.0.0', 'an unspecified address'],
    ['::', 'an unspecified address'],
    ['100.64.0.1', 'a carrier-grade NAT address'],
    ['255.255.255.255', 'a broadcast address'],
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['::ffff:10.0.0.1', 'a private address'],
    ['2002:7f00:1::', 'a special-purpose address (6to4)'],
    ['64:ff9b::a00:1', 'a special-purpose address (rfc6052)'],
  ])('refuses %s as %s', (address, why) => {
    expect(notPublic(address)).toBe(why);
  });

  it.each(['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:93.184.216.34'])('lets %s through', (a) => {
    expect(notPublic(a)).toBeNull();
  });
});

describe('guardedFetch', () => {
  it('refuses a loopback address without making the request', async () => {
    requests = [];
    await expect(guard()(`http://127.0.0.1:${port}/`)).rejects.toThrow(
      'refused: 127.0.0.1 is a loopback address (not on the allow-list)',
    );
    expect(requests).toEqual([]);
  });

  it('refuses an IPv6 loopback and a non-http scheme', async () => {
    await expect(guard()(`http://[::1]:${port}/`)).rejects.toThrow('::1 is a loopback address');
    await expect(guard()('file:///etc/passwd')).rejects.toThrow('file: is not http or https');
  });

  it('refuses a name that resolves to a private address, and one with any private address among public ones', async () => {
    const dns = resolver({ 'inside.test': ['10.0.0.7'], 'mixed.test': ['93.184.216.34', '192.168.0.2'] });
    await expect(guard({ resolve: dns.resolve })('http://inside.test/')).rejects.toThrow(
      'refused: inside.test resolves to 10.0.0.7, which is a private address (not on the allow-list)',
    );
    await expect(guard({ resolve: dns.resolve })('http://mixed.test/')).rejects.toThrow(
      'mixed.test resolves to 192.168.0.2, which is a private address',
    );
  });

  it('says when a name does not resolve', async () => {
    const dns = resolver({});
    await expect(guard({ resolve: dns.resolve })('http://nowhere.test/')).rejects.toThrow(
      'nowhere.test could not be resolved (ENOTFOUND)',
    );
  });

  it('reaches an address the allow-list names, by address or by range', async () => {
    expect(await (await guard({ allow: ['127.0.0.1'] })(`http://127.0.0.1:${port}/`)).text()).toBe('hello GET');
    const post = await guard({ allow: ['127.0.0.0/8'] })(`http://127.0.0.1:${port}/`, { method: 'POST', body: 'x' });
    expect(await post.text()).toBe('hello POST');
  });

  it('connects to the address it checked: the name is resolved once and the connection pinned to it', async () => {
    const dns = resolver({ 'named.test': ['127.0.0.1'] });
    const answer = await guard({ allow: ['named.test'], resolve: dns.resolve })(`http://named.test:${port}/pinned`);
    expect(await answer.text()).toBe('hello GET');
    expect(dns.calls).toEqual(['named.test']);
  });

  it('refuses a redirect to 127.0.0.1 from an allowed server, after the first request only', async () => {
    requests = [];
    const dns = resolver({ 'named.test': ['127.0.0.1'] });
    await expect(
      guard({ allow: ['named.test'], resolve: dns.resolve })(`http://named.test:${port}/to-loopback`),
    ).rejects.toThrow(
      `the redirect to http://127.0.0.1:${port}/inside was refused: 127.0.0.1 is a loopback address (not on the allow-list)`,
    );
    expect(requests).toEqual(['/to-loopback']);
  });

  it('follows a redirect the guard allows, checking it again', async () => {
    const dns = resolver({ 'named.test': ['127.0.0.1'] });
    const answer = await guard({ allow: ['127.0.0.1', 'named.test'], resolve: dns.resolve })(
      `http://127.0.0.1:${port}/to-named`,
    );
    expect(await answer.text()).toBe('hello GET');
    expect(dns.calls).toEqual(['named.test']);
  });

  it('stops after the redirects it allows', async () => {
    await expect(guard({ allow: ['127.0.0.1'], maxRedirects: 3 })(`http://127.0.0.1:${port}/loop`)).rejects.toThrow(
      'more than 3 redirects',
    );
  });

  it('bounds the answer in bytes, declared or not', async () => {
    const small = guard({ allow: ['127.0.0.1'], maxBytes: 100_000 });
    await expect(small(`http://127.0.0.1:${port}/declared-big`)).rejects.toThrow(
      'the answer is larger than 100000 bytes (10485760)',
    );
    const answer = await small(`http://127.0.0.1:${port}/big`);
    await expect(answer.text()).rejects.toThrow();
  });

  it('bounds the answer in time', async () => {
    await expect(guard({ allow: ['127.0.0.1'], timeoutMs: 300 })(`http://127.0.0.1:${port}/hang`)).rejects.toThrow(
      new RefusedRequest('no answer within 300 ms'),
    );
  });
});
