// The throwaway cluster `npm test` runs the Postgres suites on: it starts, answers over TCP, and leaves nothing behind.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { findPostgresBin, startPostgres } from './postgres.mjs';

const bin = findPostgresBin();
const skip = bin ? false : 'no PostgreSQL server installed (apt-get install postgresql)';
const psql = (url, query) => spawnSync(join(bin, 'psql'), [url, '-tAc', query], { encoding: 'utf8' });
// Whether the system has the C.UTF-8 locale the cluster asks for (it falls back to plain C without it).
const hasUtf8Locale = /^C\.utf-?8$/im.test(spawnSync('locale', ['-a'], { encoding: 'utf8' }).stdout ?? '');

test('a throwaway cluster starts, takes a query and is removed', { skip }, async () => {
  let dir;
  const pg = await startPostgres({ log: (l) => (dir = /data in (\S+)/.exec(l)?.[1]) });
  try {
    const r = psql(pg.url, 'SELECT 40 + 2');
    assert.equal(r.stdout.trim(), '42', r.stderr);
    assert.equal(psql(pg.adminUrl, 'SELECT current_database()').stdout.trim(), 'postgres');
    // The api's case-insensitive search lowers both sides; on a UTF-8 locale that folds non-ASCII letters too.
    if (hasUtf8Locale) assert.equal(psql(pg.url, "SELECT lower('ÉCLAIR')").stdout.trim(), 'éclair');
    assert.ok(dir && existsSync(dir));
  } finally {
    await pg.stop();
  }
  assert.equal(existsSync(dir), false);
});

test('a run killed with SIGKILL leaves no server and no folder behind', { skip }, async () => {
  const script = `import { startPostgres } from ${JSON.stringify(new URL('./postgres.mjs', import.meta.url).href)};
    const pg = await startPostgres({ log: (l) => console.log(/data in (\\S+)/.exec(l)[1]) });
    console.log(pg.url);
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const dir = (await lines.next()).value;
  const url = (await lines.next()).value;
  assert.ok(dir && url, 'the child process started no cluster');
  assert.equal(psql(url, 'SELECT 1').stdout.trim(), '1');
  child.kill('SIGKILL');
  // Polled, not timed: the watcher notices within about a second; the bound only keeps a broken watcher from hanging.
  for (let i = 0; i < 300 && existsSync(dir); i++) await sleep(100);
  assert.equal(existsSync(dir), false, `${dir} is still there`);
  assert.notEqual(psql(url, 'SELECT 1').status, 0, 'the server still answers');
});
