// The throwaway cluster `npm test` runs the Postgres suites on: it starts, answers over TCP, and leaves nothing behind.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { findPostgresBin, startPostgres } from './postgres.mjs';

const bin = findPostgresBin();

test('a throwaway cluster starts, takes a query and is removed', { skip: bin ? false : 'no PostgreSQL server installed' }, async () => {
  let dir;
  const pg = await startPostgres({ log: (l) => (dir = /data in (\S+)/.exec(l)?.[1]) });
  try {
    const r = spawnSync(join(bin, 'psql'), [pg.url, '-tAc', 'SELECT 40 + 2'], { encoding: 'utf8' });
    assert.equal(r.stdout.trim(), '42', r.stderr);
    assert.ok(dir && existsSync(dir));
  } finally {
    await pg.stop();
  }
  assert.equal(existsSync(dir), false);
});
