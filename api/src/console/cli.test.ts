/** The operator commands write the audit trail as cli:<os user>: the console's own, moderation's and tokens'. */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isPostgresUrl, openDatabase, type DB } from '../db/connection';
import { insertSubmission } from '../forms/repository';
import { testDatabaseLocation } from '../../test/testDatabase';
import { listAudit } from '../content/audit';
import { listPeople } from './people';
import { consoleOriginFile, recordConsoleOrigin } from './consoleOrigin';

const dir = mkdtempSync(join(tmpdir(), 'console-cli-'));
let location: string;
let db: DB;

const run = (script: string, ...args: string[]) => {
  const env: NodeJS.ProcessEnv = { ...process.env, CONSOLE_ORIGIN: 'https://console.example' };
  delete env.RELEASE_ACTOR;
  return execFileSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '..', script), ...args], {
    env: { ...env, ...(isPostgresUrl(location) ? { DATABASE_URL: location } : { DATABASE_PATH: location }) },
    encoding: 'utf8',
  });
};

beforeAll(async () => {
  location = await testDatabaseLocation(join(dir, 'site.sqlite'));
  db = await openDatabase(location);
});
afterAll(async () => {
  await db.destroy();
  rmSync(consoleOriginFile(location), { force: true });
  rmSync(dir, { recursive: true, force: true });
});

it('pnpm console invite, pnpm moderate reject and pnpm token create each write an audit row as cli:<user>', async () => {
  const out = run('console/cli.ts', 'invite', '--name', 'First Admin', '--role', 'admin');
  expect(out).toMatch(/^https:\/\/console\.example\/invite\/[\w-]{43}$/m);
  expect((await listPeople(db)).map((p) => [p.name, p.roles])).toEqual([['First Admin', [{ role: 'admin' }]]]);

  const id = await insertSubmission(db, {
    name: 'A tool',
    email: 'a@b.co',
    website_url: 'https://a.b',
    tool_type: 'ai-tool',
    description: 'x',
    message: null,
  });
  run('moderation/cli.ts', 'reject', String(id));
  const token = run('releases/tokenCli.ts', 'create', 'blog', '--label', 'blog-ci').trim().split('\n').at(-1)!;

  const { entries } = await listAudit(db);
  const actor = `cli:${userInfo().username}`;
  expect(entries.map((e) => [e.actor, e.action, e.target]).reverse()).toEqual([
    [actor, 'person.invite', expect.stringMatching(/^person \d+ First Admin$/)],
    [actor, 'submission.reject', `submission ${id}`],
    [actor, 'token.create', 'blog-ci'],
  ]);
  expect(JSON.stringify(entries)).not.toContain(token);
  expect(JSON.stringify(entries)).not.toMatch(/invite\/[\w-]{43}/);
});

it('the operator commands refuse text the field rules refuse, naming the field, and write nothing', async () => {
  const refusal = (script: string, ...args: string[]) => {
    try {
      run(script, ...args);
    } catch (err) {
      const e = err as { status: number; stderr: string };
      return { status: e.status, stderr: e.stderr };
    }
    throw new Error(`${script} ${args.join(' ')} was accepted`);
  };
  const people = (await listPeople(db)).length;
  const invite = refusal('console/cli.ts', 'invite', '--name', 'Mallory\u202eX', '--role', 'viewer');
  expect(invite.status).toBe(1);
  // Named once, by the invitation form's label (contracts/formFields.ts), as the console says it.
  expect(invite.stderr).toMatch(/Not accepted: Name contains a text-direction control \(U\+202E\)/);
  expect((await listPeople(db)).length).toBe(people);

  const id = await insertSubmission(db, {
    name: 'Another tool',
    email: 'a@b.co',
    website_url: 'https://a.b',
    tool_type: 'ai-tool',
    description: 'x',
    message: null,
  });
  const approve = refusal('moderation/cli.ts', 'approve', String(id), '--category', 'Evil\u202eCat');
  expect(approve.stderr).toMatch(/category: Category contains a text-direction control \(U\+202E\)/);
  expect((await db.selectFrom('tools').select('slug').where('slug', '=', 'another-tool').execute()).length).toBe(0);

  const rollback = refusal('releases/cli.ts', 'rollback', 'blog', '--reason', 'oops\u001b[2J');
  expect(rollback.status).toBe(2);
  expect(rollback.stderr).toMatch(/--reason: Reason contains a control character \(U\+001B\)/);
});

it('pnpm console keeps an enabled admin, as the console does: the last one keeps the role and stays enabled', async () => {
  run('console/cli.ts', 'invite', '--name', 'Last Admin', '--role', 'admin');
  const admins = (await listPeople(db)).filter((p) => !p.disabled && p.roles.some((r) => r.role === 'admin'));
  // While another admin is left, one may become a viewer.
  for (const other of admins.slice(0, -1)) run('console/cli.ts', 'roles', String(other.id), '--role', 'viewer');
  const id = String(admins.at(-1)!.id);
  for (const args of [
    ['roles', id, '--role', 'viewer'],
    ['disable', id],
  ]) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'cli.ts'), ...args], {
      env: { ...process.env, ...(isPostgresUrl(location) ? { DATABASE_URL: location } : { DATABASE_PATH: location }) },
      encoding: 'utf8',
    });
    expect(r.status, args.join(' ')).not.toBe(0);
    expect(r.stderr).toMatch(/This is the only admin: make another admin first\./);
  }
  const after = (await listPeople(db)).find((p) => String(p.id) === id)!;
  expect([after.disabled, after.roles.map((r) => r.role)]).toEqual([false, ['admin']]);
});

it("pnpm console invite prints a link on the running site's console origin, or says which setting it needs", () => {
  // Run from another shell: none of the server's console settings.
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.CONSOLE_ORIGIN;
  delete env.CONSOLE_PORT;
  const invite = (name: string) =>
    spawnSync(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'cli.ts'), 'invite', '--name', name, '--role', 'viewer'],
      {
        env: { ...env, ...(isPostgresUrl(location) ? { DATABASE_URL: location } : { DATABASE_PATH: location }) },
        encoding: 'utf8',
      },
    );
  const unknown = invite('Before the site started');
  expect(unknown.status).toBe(0);
  expect(unknown.stdout).toMatch(/^http:\/\/localhost:8081\/invite\/[\w-]{43}$/m);
  expect(unknown.stderr).toMatch(/this link assumes http:\/\/localhost:8081\. .*CONSOLE_ORIGIN/s);

  // The site started its console on port 9123 (main.ts records it once the console listens).
  recordConsoleOrigin({ database: location, console: { origin: 'http://localhost:9123' } as never });
  const known = invite('After the site started');
  expect(known.status).toBe(0);
  expect(known.stdout).toMatch(/^http:\/\/localhost:9123\/invite\/[\w-]{43}$/m);
  expect(known.stderr).toBe('');
});
