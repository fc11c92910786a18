import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFICIAL_META_KEY, SERVER_SCHEMA_URL } from '@aitools/contracts/mcp';
import { isPostgresUrl, openDatabase } from '../db/connection';
import { testDatabaseLocation } from '../../test/testDatabase';

/** `pnpm registry sync` is the same service as the job's: run for real against a local upstream. */
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'registry-cli-'));
let answer: { status: number; body: unknown };
let upstream: Server;
let base: string;

beforeAll(async () => {
  upstream = createServer((_req, res) =>
    res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer.body)),
  );
  upstream.listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(() => {
  upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

async function sync(location: string, ...args: string[]) {
  const env = {
    ...process.env,
    REGISTRY_UPSTREAMS: base,
    OUTBOUND_ALLOW: '127.0.0.1',
    ...(isPostgresUrl(location) ? { DATABASE_URL: location } : { DATABASE_PATH: location }),
  };
  const cli = join(import.meta.dirname, 'registryCli.ts');
  return run(process.execPath, ['--import', 'tsx', cli, 'sync', ...args], { env, encoding: 'utf8' }).then(
    (r) => ({ code: 0, ...r }),
    (err: { code: number; stdout: string; stderr: string }) => err,
  );
}

describe('pnpm registry sync', () => {
  it('follows REGISTRY_UPSTREAMS, says what it did, and says why with exit status 1 when refused', async () => {
    const location = await testDatabaseLocation(join(dir, 'site.sqlite'));
    answer = {
      status: 200,
      body: {
        servers: [
          {
            server: { $schema: SERVER_SCHEMA_URL, name: 'io.example/cli', description: 'A server.', version: '1.0.0' },
            _meta: { [OFFICIAL_META_KEY]: { status: 'active', updatedAt: '2026-11-20T10:00:00Z' } },
          },
        ],
        metadata: { count: 1 },
      },
    };
    const ok = await sync(location);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe(
      `${base} synced: 1 pages, 1 records: 1 added as submissions, 0 listed, 0 updated, 0 unchanged, 0 deleted, 0 skipped\n`,
    );
    answer = { status: 503, body: { error: 'down' } };
    const refused = await sync(location, base);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe(`${base} refused, nothing changed: /v0.1/servers answered 503\n`);
    const unknown = await sync(location, '42');
    expect(unknown).toMatchObject({ code: 1, stderr: 'No upstream is 42.\n' });
    const db = await openDatabase(location);
    try {
      const rows = await db.selectFrom('submission_servers').select('name').execute();
      expect(rows).toEqual([{ name: 'io.example/cli' }]);
    } finally {
      await db.destroy();
    }
  });
});
