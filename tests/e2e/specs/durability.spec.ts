/**
 * Nothing acknowledged is lost and nothing retried is stored twice: contact messages are posted with idempotency
 * keys by several clients at once, the server process is killed with SIGKILL in the middle, started again on the
 * same database, and every post (answered or not) is sent again with its key, as a client that lost the answer
 * would. No browser: the server's own process, on a database of this spec's own.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { freePort, startServerProcess, stopServerProcess } from '../harness';
import { queryDbAt } from '../db';

const CLIENTS = 8;
const KILL_AFTER_ACKS = 150;

const dir = mkdtempSync(join(tmpdir(), 'aitools-durability-'));
const databasePath = join(dir, 'site.sqlite');
after(() => rmSync(dir, { recursive: true, force: true }));

function startServer(port: number): Promise<ChildProcess> {
  return startServerProcess({
    PORT: String(port),
    DATABASE_PATH: databasePath,
    RELEASES_DIR: join(dir, 'releases'),
    SITE_ORIGIN: `http://localhost:${port}`,
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    WRITE_RATE_LIMIT: '1000000',
  });
}

const message = (key: string) => ({
  name: 'Durability check',
  email: 'durability@example.com',
  subject: 'general',
  message: `durability ${key}`,
  idempotencyKey: key,
});

async function post(port: number, key: string): Promise<boolean> {
  const res = await fetch(`http://localhost:${port}/api/contact/submit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(message(key)),
  });
  return res.ok && ((await res.json()) as { success?: boolean }).success === true;
}

const rowsOf = (key: string) =>
  queryDbAt<{ n: number }>(
    databasePath,
    'SELECT count(*) AS n FROM contact_messages WHERE message = ?',
    `durability ${key}`,
  )[0]!.n;

describe('writes survive a killed server', () => {
  it('loses no acknowledged write to SIGKILL, and a retry with the same key stores nothing twice', async () => {
    const port = await freePort();
    let server = await startServer(port);
    const attempted: string[] = [];
    const acked = new Set<string>();
    let killed = false;
    const client = async (c: number) => {
      for (let i = 0; !killed; i++) {
        const key = `durability-${c}-${i}`;
        attempted.push(key);
        try {
          if (await post(port, key)) acked.add(key);
        } catch {
          return; // the server is gone: this post's answer was lost
        }
        if (acked.size >= KILL_AFTER_ACKS && !killed) {
          killed = true;
          server.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
    await new Promise((r) =>
      server.exitCode !== null || server.signalCode !== null ? r(null) : server.once('exit', r),
    );
    assert.equal(server.signalCode, 'SIGKILL');

    // Every acknowledged write is in the database, once.
    const lost = [...acked].filter((k) => rowsOf(k) !== 1);
    assert.deepEqual(lost, [], `${acked.size} acknowledged, these are not stored exactly once`);

    // The clients send everything again with the same keys: each is answered, and stored exactly once.
    server = await startServer(port);
    try {
      for (const key of attempted) assert.ok(await post(port, key), `the retry of ${key} is answered`);
      const counts = attempted.map(rowsOf);
      assert.deepEqual(
        counts.filter((n) => n !== 1),
        [],
        'every post is stored exactly once after its retry',
      );
      console.log(
        `  ${acked.size} acknowledged before SIGKILL, ${attempted.length - acked.size} unanswered; all ${attempted.length} stored once after retries`,
      );
    } finally {
      await stopServerProcess(server);
    }
  });
});
