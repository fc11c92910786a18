/** `pnpm registry run <job>` and `pnpm registry jobs`: the real CLI in a child process on the test database. */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgresUrl, openDatabase, type DB } from '../db/connection';
import { testDatabaseLocation } from '../../test/testDatabase';
import { upsertPost } from '../blog/repository';
import { listRuns } from './runs';
import { listAudit } from '../content/audit';

const dir = mkdtempSync(join(tmpdir(), 'jobs-cli-'));
let location: string;
let db: DB;
const env = () => ({
  ...process.env,
  RELEASE_ACTOR: 'operator',
  ...(isPostgresUrl(location) ? { DATABASE_URL: location } : { DATABASE_PATH: location }),
});
const cli = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'cli.ts'), ...args], {
    env: env(),
    encoding: 'utf8',
  });

beforeAll(async () => {
  location = await testDatabaseLocation(join(dir, 'site.sqlite'));
  db = await openDatabase(location);
  await upsertPost(db, {
    slug: 'due',
    title: 'Due',
    status: 'scheduled',
    published_at: '2026-01-01T00:00:00.000Z',
    content: 'x',
  });
});
afterAll(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('pnpm registry run and jobs', () => {
  it('runs a job now, recorded and audited as the operating-system user', async () => {
    const r = cli('run', 'publish-posts');
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('publish-posts: 1 published: due');
    expect(r.status).toBe(0);
    const [run] = await listRuns(db, { job: 'publish-posts' });
    expect(run).toMatchObject({ status: 'ok', trigger: 'cli:operator' });
    const { entries } = await listAudit(db, { action: 'job.run' });
    expect(entries[0]).toMatchObject({ actor: 'cli:operator', target: 'job publish-posts' });
    const listed = execFileSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'cli.ts'), 'jobs'], {
      env: env(),
      encoding: 'utf8',
    });
    expect(listed).toMatch(/^publish-posts \(every 15 seconds\): last \S+ ok; next \S+$/m);
    expect(listed).toMatch(/^versions \(daily \(UTC midnight\)\): never run; next \S+T00:00:00.000Z$/m);
  });

  it('refuses a job that does not exist, naming those that do', () => {
    const r = cli('run', 'nope');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('No job named nope. Jobs: versions, inspect, publish-posts');
  });

  it('hands every other command to the registry CLI', () => {
    const r = cli('frobnicate');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('pnpm registry import');
  });
});
