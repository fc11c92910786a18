/**
 * The console in tests: the site's app on a fresh database, the console's requests made as its own pages make them
 * (Origin and Sec-Fetch-Site of the console), and people signed in with software passkeys.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express, { type Express } from 'express';
import request from 'supertest';
import { createApp, type SiteApp } from '../src/app';
import { loadConfig } from '../src/config';
import { randomBytes } from 'node:crypto';
import { isPostgresUrl, openDatabase, type DB } from '../src/db/connection';
import { createLogger } from '../src/middleware/logger';
import { createInvitation } from '../src/console/invitations';
import { createPerson, type Person } from '../src/console/people';
import type { Role } from '../src/console/roles';
import { SoftAuthenticator } from './softAuthenticator';
import { testDatabaseLocation } from './testDatabase';

export const CONSOLE_ORIGIN = 'http://localhost:8081';

export interface ConsoleTest {
  app: SiteApp;
  db: DB;
  dir: string;
  releasesDir: string;
  close(): Promise<void>;
}

/** `dist`: makes the console's browser build for the test (in the test's folder) and says where it is. */
export async function startConsoleTest(
  env: Record<string, string> = {},
  dist?: (dir: string) => string,
): Promise<ConsoleTest> {
  const dir = mkdtempSync(join(tmpdir(), 'console-test-'));
  const releasesDir = join(dir, 'releases');
  // On Postgres the jobs' queue reaches the same database, with a schema of its own for this test.
  const location = await testDatabaseLocation();
  const onPg = isPostgresUrl(location);
  const config = loadConfig({
    NODE_ENV: 'test',
    RELEASES_DIR: releasesDir,
    PREVIEW_SECRET: 'test-secret',
    SITE_ORIGIN: 'https://site.example',
    CONSOLE_ORIGIN,
    ...(onPg ? { DATABASE_URL: location, JOBS_SCHEMA: `pgboss_${randomBytes(4).toString('hex')}` } : {}),
    ...env,
  });
  const db = await openDatabase(location);
  const app = await createApp({
    config,
    db,
    logger: createLogger('silent'),
    pages: false,
    consoleDist: dist ? dist(dir) : join(dir, 'no-console-build'),
  });
  return {
    app,
    db,
    dir,
    releasesDir,
    async close() {
      await app.stop();
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The cookies an answer sets, as name=value pairs (attributes dropped). */
export function setCookies(res: { headers: Record<string, unknown> }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of (res.headers['set-cookie'] as string[] | undefined) ?? []) {
    const [pair] = line.split(';');
    const i = pair!.indexOf('=');
    out[pair!.slice(0, i)] = pair!.slice(i + 1);
  }
  return out;
}

/** A browser of the console: its own cookies, its requests same-origin. */
export class ConsoleBrowser {
  cookies: Record<string, string> = {};
  constructor(readonly t: ConsoleTest) {}

  private cookieHeader() {
    return Object.entries(this.cookies)
      .filter(([, v]) => v !== '')
      .map(([k, v]) => `${k}=${v}`)
      .join('; ');
  }
  private keep(res: request.Response) {
    Object.assign(this.cookies, setCookies(res));
    return res;
  }
  async get(path: string) {
    return this.keep(await request(this.t.app.console).get(path).set('Cookie', this.cookieHeader()));
  }
  /** `app`: where the request goes (the console, or overlapping()'s gate in front of it). */
  async post(path: string, body: object = {}, headers: Record<string, string> = {}, app: Express = this.t.app.console) {
    return this.keep(
      await request(app)
        .post(path)
        .set('Cookie', this.cookieHeader())
        .set('Origin', CONSOLE_ORIGIN)
        .set('Sec-Fetch-Site', 'same-origin')
        .set(headers)
        .send(body),
    );
  }
  get session() {
    return this.cookies['__Host-console'];
  }
}

/**
 * Makes `calls` overlap in the server: each request is held as it arrives until every one has arrived, and then all
 * go on together, so none is answered before the server has received them all (on SQLite their transactions then
 * take turns on its one writer; on Postgres they run at once). `arrived` says how many the gate held.
 */
export async function overlapping(
  t: ConsoleTest,
  calls: ((app: Express) => Promise<request.Response>)[],
): Promise<{ answers: request.Response[]; arrived: number }> {
  const held: (() => void)[] = [];
  const gate = express();
  gate.use((_req, _res, next) => {
    held.push(next);
    if (held.length === calls.length) for (const go of held) go();
  });
  gate.use(t.app.console);
  const answers = await Promise.all(calls.map((call) => call(gate)));
  return { answers, arrived: held.length };
}

/** An invitation link's token. */
export const tokenOf = (link: string) => link.slice(link.lastIndexOf('/') + 1);

/** Registers a passkey from an invitation in this browser: the person is signed in after it. */
export async function register(browser: ConsoleBrowser, token: string, key: SoftAuthenticator) {
  const options = await browser.post('/api/auth/register/options', { token });
  if (options.status !== 200) throw new Error(`register/options: ${options.status} ${JSON.stringify(options.body)}`);
  return browser.post('/api/auth/register/verify', { token, response: key.register(options.body.options) });
}

export async function signIn(browser: ConsoleBrowser, key: SoftAuthenticator) {
  const options = await browser.post('/api/auth/login/options');
  return browser.post('/api/auth/login/verify', { response: key.authenticate(options.body.options) });
}

/** A new person with these roles, invited by the CLI's path and signed in with a fresh passkey in a fresh browser. */
export async function signedInPerson(
  t: ConsoleTest,
  name: string,
  roles: Role[],
): Promise<{ person: Person; browser: ConsoleBrowser; key: SoftAuthenticator }> {
  const person = await createPerson(t.db, { name, roles });
  const { link } = await createInvitation(t.db, { personId: person.id, origin: CONSOLE_ORIGIN, by: 'cli:test' });
  const browser = new ConsoleBrowser(t);
  const key = new SoftAuthenticator(CONSOLE_ORIGIN);
  const res = await register(browser, tokenOf(link), key);
  if (res.status !== 200) throw new Error(`register/verify: ${res.status} ${JSON.stringify(res.body)}`);
  return { person, browser, key };
}
