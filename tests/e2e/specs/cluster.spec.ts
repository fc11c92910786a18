/**
 * Several instances on one Postgres: two server processes on two ports share a database (created here on the
 * server E2E_DATABASE_URL names; `npm test` starts a throwaway one when PostgreSQL is installed) and nothing else:
 * each has its own release folder, empty at the start, filled from the release files in the database. What one
 * instance or an operator's command changes, the other serves; limits count across both; killing one instance under
 * write load loses nothing it acknowledged.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort, runApiScript, runReleaseCli, startServerProcess, stopServerProcess } from '../harness';
import { queryPostgres, throwawayPostgres } from '../db';
import { createHash, randomBytes } from 'node:crypto';

const ADMIN_URL = process.env.E2E_DATABASE_URL;
const EVENTS_LIMIT = 4;

describe(
  'two instances on one Postgres',
  { skip: ADMIN_URL ? false : 'no Postgres server (npm test starts one when PostgreSQL is installed)' },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'aitools-cluster-'));
    // The operator's folder (a copy of the suite's store, taken over into the database) and each instance's own.
    const releasesDir = join(dir, 'releases');
    const instanceDir = (i: number) => join(dir, `instance-${i}`);
    let database: Awaited<ReturnType<typeof throwawayPostgres>> | undefined;
    let databaseUrl: string;
    const ports: number[] = [];
    /** Instance 0 also serves the operator console, on this port. */
    let consolePort = 0;
    const consoleOrigin = () => `http://localhost:${consolePort}`;
    const servers: ChildProcess[] = [];
    const base = (i: number) => `http://localhost:${ports[i]}`;
    const cliEnv = () => ({ RELEASES_DIR: releasesDir, DATABASE_URL: databaseUrl });

    const start = (i: number) =>
      startServerProcess({
        PORT: String(ports[i]),
        DATABASE_URL: databaseUrl,
        RELEASES_DIR: instanceDir(i),
        SITE_ORIGIN: base(i),
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        WRITE_RATE_LIMIT: '1000000',
        EVENTS_RATE_LIMIT: String(EVENTS_LIMIT),
        RENDER_BUDGET_MS: '15000',
        // Signs preview links: the same on every instance (docs/operations.md).
        PREVIEW_SECRET: 'cluster-spec',
        ...(i === 0 ? { CONSOLE_PORT: String(consolePort), CONSOLE_ORIGIN: consoleOrigin() } : {}),
      });

    before(async () => {
      database = await throwawayPostgres(ADMIN_URL!, 'aitools_cluster');
      databaseUrl = database.url;
      // The suite's store, taken over into the database by the first command on it (its releases and manifest.json);
      // the instances start with empty folders of their own.
      cpSync(process.env.RELEASES_DIR!, releasesDir, { recursive: true });
      const takeover = await runReleaseCli(cliEnv(), ['list']);
      assert.equal(takeover.status, 0, takeover.stderr);
      for (const i of [0, 1]) mkdirSync(instanceDir(i));
      ports.push(await freePort(), await freePort());
      consolePort = await freePort();
      servers.push(await start(0), await start(1));
    });

    after(async () => {
      for (const s of servers) await stopServerProcess(s);
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    const json = async (i: number, path: string) => {
      const res = await fetch(base(i) + path);
      return {
        status: res.status,
        body: res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text(),
      };
    };
    const activeLegal = async (i: number) =>
      ((await json(i, '/remotes.json')).body as Record<string, { id: string }>).legal!.id;
    /** Polls until both instances serve `id` for legal; returns how long that took after the command ended. */
    async function bothServe(id: string): Promise<number> {
      const started = Date.now();
      for (;;) {
        const served = await Promise.all([activeLegal(0), activeLegal(1)]);
        if (served.every((s) => s === id)) return Date.now() - started;
        assert.ok(Date.now() - started < 10_000, `both instances serve ${id} (they serve ${served.join(', ')})`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }

    it('a submission made on one instance, approved by an operator, shows on the other', async () => {
      const res = await fetch(`${base(0)}/api/submissions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Cluster Check Tool',
          email: 'cluster@example.com',
          website_url: 'https://example.com/cluster',
          tool_type: 'ai-tool',
          description: 'Made on one instance, read on the other.',
        }),
      });
      assert.equal(res.status, 201);
      const { id } = (await res.json()) as { id: number };
      assert.equal((await json(1, '/api/tools/cluster-check-tool')).status, 404, 'not public before approval');

      const moderate = await runApiScript(cliEnv(), 'src/moderation/cli.ts', ['approve', String(id)]);
      assert.equal(moderate.status, 0, moderate.stderr);
      assert.match(moderate.stdout, /published at \/tool\/cluster-check-tool/);

      const tool = await json(1, '/api/tools/cluster-check-tool');
      assert.equal(tool.status, 200);
      assert.equal((tool.body as { name: string }).name, 'Cluster Check Tool');
      const page = await json(1, '/tool/cluster-check-tool');
      assert.equal(page.status, 200);
      assert.match(page.body as string, /Cluster Check Tool/);
      assert.equal((await json(0, '/tool/cluster-check-tool')).status, 200);
    });

    it('a release and a rollback take effect on both instances, without a restart', async () => {
      const before = await activeLegal(0);
      assert.equal(await activeLegal(1), before);

      const released = await runReleaseCli(cliEnv(), ['release', 'legal']);
      assert.equal(released.status, 0, released.stderr);
      const id = /legal: (\S+) is active/.exec(released.stdout)?.[1];
      assert.ok(id && id !== before, released.stdout);
      const afterRelease = await bothServe(id);
      const privacy = await json(1, '/privacy');
      assert.match(privacy.body as string, new RegExp(`/remotes/legal/${id}/`));

      const rolledBack = await runReleaseCli(cliEnv(), ['rollback', 'legal']);
      assert.equal(rolledBack.status, 0, rolledBack.stderr);
      const afterRollback = await bothServe(before);
      const rows = await queryPostgres<{ action: string; release_id: string }>(
        databaseUrl,
        `SELECT action, release_id FROM release_events WHERE remote = 'legal' ORDER BY id DESC LIMIT 2`,
      );
      assert.deepEqual(rows, [
        { action: 'rollback', release_id: before },
        { action: 'release', release_id: id },
      ]);
      console.log(
        `  both instances served the release ${afterRelease} ms and the rollback ${afterRollback} ms after the command ended`,
      );
    });

    it('the release API on one instance changes both, and a token revoked on one is refused by the other at once', async () => {
      const made = await runApiScript(cliEnv(), 'src/releases/tokenCli.ts', ['create', 'legal', '--label', 'legal-ci']);
      assert.equal(made.status, 0, made.stderr);
      const token = /^aitr_\S+$/m.exec(made.stdout)![0];
      const call = (i: number, path: string, init: RequestInit = {}) =>
        fetch(`${base(i)}/api/releases/${path}`, {
          ...init,
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        });

      const listed = (await (await call(1, 'legal')).json()) as {
        data: { active: string; releases: { id: string }[] };
      };
      const target = listed.data.releases.find((r) => r.id !== listed.data.active)!.id;
      const activated = await call(0, 'legal/activate', { method: 'POST', body: JSON.stringify({ id: target }) });
      assert.equal(activated.status, 200);
      await bothServe(target);
      const [row] = await queryPostgres<{ by: string; release_id: string }>(
        databaseUrl,
        `SELECT "by", release_id FROM release_events WHERE remote = 'legal' ORDER BY id DESC LIMIT 1`,
      );
      assert.deepEqual(row, { by: 'legal-ci', release_id: target });
      const back = await call(1, 'legal/rollback', { method: 'POST', body: '{}' });
      assert.equal(back.status, 200);
      await bothServe(listed.data.active);

      assert.equal((await call(1, 'legal')).status, 200, 'instance 1 has accepted the token');
      const revoked = await runApiScript(cliEnv(), 'src/releases/tokenCli.ts', ['revoke', 'legal-ci']);
      assert.equal(revoked.status, 0, revoked.stderr);
      // At once: the very next request on either instance, no wait.
      assert.equal((await call(1, 'legal')).status, 401);
      assert.equal((await call(0, 'legal/rollback', { method: 'POST', body: '{}' })).status, 401);
    });

    /** The release files the page at `path` names for `remote` (its entry, preloaded chunks and stylesheets). */
    const namedFiles = (html: string, remote: string) => [
      ...new Set(html.match(new RegExp(`/remotes/${remote}/[\\w.-]+/[\\w./-]+\\.(?:js|css|mjs)`, 'g')) ?? []),
    ];
    /** Every browser file of every stored release, as the database holds them. */
    const storedClientFiles = () =>
      queryPostgres<{ remote: string; release_id: string; path: string }>(
        databaseUrl,
        `SELECT remote, release_id, path FROM release_paths WHERE path LIKE 'client/%' ORDER BY remote, release_id, path`,
      );
    const statusOf = async (i: number, url: string) => (await fetch(base(i) + url)).status;

    it('a blog release uploaded through one instance is served by the other: the page and every file it names', async () => {
      const made = await runApiScript(cliEnv(), 'src/releases/tokenCli.ts', ['create', 'blog', '--label', 'blog-ci']);
      assert.equal(made.status, 0, made.stderr);
      const token = /^aitr_\S+$/m.exec(made.stdout)![0];
      const before = (
        await queryPostgres<{ n: number }>(databaseUrl, `SELECT count(*)::int AS n FROM release_contents`)
      )[0]!.n;
      const upload = await runReleaseCli({ ...cliEnv(), RELEASE_TOKEN: token }, ['release', 'blog', '--site', base(0)]);
      assert.equal(upload.status, 0, upload.stderr + upload.stdout);
      const uploaded = Date.now();
      const id = ((await json(0, '/remotes.json')).body as Record<string, { id: string }>).blog!.id;

      let page: string;
      for (;;) {
        const res = await fetch(`${base(1)}/blog`);
        page = await res.text();
        if (res.status === 200 && page.includes(`/remotes/blog/${id}/`)) break;
        // A deadline that only stops a run where it never happens; how long it took is printed below (a figure).
        assert.ok(Date.now() - uploaded < 30_000, `instance 1 serves blog ${id}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      const took = Date.now() - uploaded;
      // Uploaded to instance 0 only: instance 1's copy came from the database.
      assert.ok(existsSync(join(instanceDir(1), 'blog', id, 'release.json')), 'instance 1 holds its own copy');
      const named = namedFiles(page, 'blog').filter((u) => u.includes(`/${id}/`));
      assert.ok(named.length >= 2, `the page names the release's entry and chunks: ${named.join(', ')}`);
      for (const url of named) assert.equal(await statusOf(1, url), 200, url);
      const files = (await storedClientFiles()).filter((f) => f.remote === 'blog' && f.release_id === id);
      for (const f of files)
        assert.equal(await statusOf(1, `/remotes/blog/${id}/${f.path.slice('client/'.length)}`), 200, f.path);

      // The new release shares files with the one before it: those contents are stored once, and none is left over.
      const [shared] = await queryPostgres<{ n: number }>(
        databaseUrl,
        `SELECT count(*)::int AS n FROM (SELECT sha256 FROM release_paths WHERE remote = 'blog'
           GROUP BY sha256 HAVING count(DISTINCT release_id) > 1) s`,
      );
      const [counts] = await queryPostgres<{ contents: number; distinct_paths: number; added: number }>(
        databaseUrl,
        `SELECT (SELECT count(*)::int FROM release_contents) AS contents,
                (SELECT count(DISTINCT sha256)::int FROM release_paths) AS distinct_paths,
                (SELECT count(*)::int FROM release_paths WHERE remote = 'blog' AND release_id = $1) AS added`,
        id,
      );
      assert.ok(shared!.n > 0, 'two blog releases share files');
      assert.equal(counts!.contents, counts!.distinct_paths, 'each distinct content is one row');
      assert.ok(
        counts!.contents - before < counts!.added,
        `${counts!.added} files, ${counts!.contents - before} new contents`,
      );
      console.log(
        `  instance 1 served the page ${took} ms after the upload ended; ${named.length} named files and ${files.length} browser files answered 200; ${shared!.n} contents shared with earlier blog releases, stored once`,
      );
    });

    it('a legal release uploaded through one instance is previewed, then run as a canary, on the other', async () => {
      const made = await runApiScript(cliEnv(), 'src/releases/tokenCli.ts', [
        'create',
        'legal',
        '--label',
        'legal-team',
      ]);
      assert.equal(made.status, 0, made.stderr);
      const token = /^aitr_\S+$/m.exec(made.stdout)![0];
      const upload = await runReleaseCli({ ...cliEnv(), RELEASE_TOKEN: token }, [
        'release',
        'legal',
        '--site',
        base(0),
        '--no-activate',
      ]);
      assert.equal(upload.status, 0, upload.stderr + upload.stdout);
      const link = new URL(/^\s+(http\S+__preview\S+)$/m.exec(upload.stdout)![1]!);
      const id = /\/__preview\/legal\/([^/?]+)/.exec(link.pathname)![1]!;
      assert.notEqual(await activeLegal(1), id, 'stored, not activated');

      /** /privacy on instance 1 with `cookie`: the legal release it names, and the status of every file it names. */
      const privacyOn1 = async (cookie: string) => {
        const html = await (await fetch(`${base(1)}/privacy`, { headers: { cookie } })).text();
        const named = namedFiles(html, 'legal');
        return {
          release: /\/remotes\/legal\/([^/]+)\/remoteEntry\.js/.exec(html)?.[1],
          statuses: await Promise.all(named.map(async (u) => `${u} ${await statusOf(1, u)}`)),
        };
      };
      // The link opened on the other instance: it fetches the release from the database and serves it to this browser.
      const opened = await fetch(`${base(1)}${link.pathname}${link.search}`, { redirect: 'manual' });
      assert.equal(opened.status, 303);
      const previewCookie = opened.headers.get('set-cookie')!.split(';')[0]!;
      const previewed = await privacyOn1(previewCookie);
      assert.equal(previewed.release, id);
      assert.ok(
        previewed.statuses.every((s) => s.endsWith(' 200')),
        previewed.statuses.join(', '),
      );
      assert.notEqual((await privacyOn1('')).release, id, 'others keep the active release');

      // A canary started through instance 0: instance 1 serves it to a visitor of a bucket below its share.
      const canary = await fetch(`${base(0)}/api/releases/legal/activate`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ id, canary: 50 }),
      });
      assert.equal(canary.status, 200, await canary.text());
      const started = Date.now();
      for (;;) {
        const onCanary = await privacyOn1('release_bucket=0');
        if (onCanary.release === id) {
          assert.ok(
            onCanary.statuses.every((s) => s.endsWith(' 200')),
            onCanary.statuses.join(', '),
          );
          break;
        }
        assert.ok(Date.now() - started < 10_000, 'instance 1 serves the canary to its side');
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.notEqual((await privacyOn1('release_bucket=99')).release, id, 'the stable side keeps the active release');
      const aborted = await fetch(`${base(1)}/api/releases/legal/abort`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
      });
      assert.equal(aborted.status, 200, await aborted.text());
    });

    it("an instance whose release folder is deleted while it runs refills it, and serves every stored release's files with no 404", async () => {
      rmSync(instanceDir(0), { recursive: true, force: true });
      const served = (await json(1, '/remotes.json')).body as Record<string, { id: string }>;
      // By itself: the releases it serves come back without a request asking for them.
      const started = Date.now();
      for (;;) {
        const missing = Object.entries(served).filter(
          ([remote, r]) => !existsSync(join(instanceDir(0), remote, r.id, 'release.json')),
        );
        if (!missing.length) break;
        assert.ok(Date.now() - started < 15_000, `refilled: ${missing.map(([r]) => r).join(', ')} still missing`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const files = await storedClientFiles();
      const failed: string[] = [];
      for (const f of files) {
        const url = `/remotes/${f.remote}/${f.release_id}/${f.path.slice('client/'.length)}`;
        const status = await statusOf(0, url);
        if (status !== 200) failed.push(`${url}: ${status}`);
      }
      assert.deepEqual(failed, [], `all ${files.length} files of the stored releases answer 200`);
      const blog = await fetch(`${base(0)}/blog`);
      assert.equal(blog.status, 200);
      for (const url of namedFiles(await blog.text(), 'blog')) assert.equal(await statusOf(0, url), 200, url);
      console.log(
        `  ${files.length} files of ${new Set(files.map((f) => f.release_id)).size} stored releases answered 200 after the folder was deleted`,
      );
    });

    it('the write rate limit counts across both instances', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < EVENTS_LIMIT + 2; i++) {
        const res = await fetch(`${base(i % 2)}/api/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            event: 'tool_page_view',
            data: { slug: 'cursor' },
            timestamp: new Date().toISOString(),
          }),
        });
        statuses.push(res.status);
      }
      assert.deepEqual(statuses, [...Array(EVENTS_LIMIT).fill(201), 429, 429]);
    });

    /** A console call on instance 0 as an editor (`name`), whose session is made in the database as a sign-in
     *  would (console/sessions.ts: only the id's hash). */
    async function editorCalls(name: string) {
      const [person] = await queryPostgres<{ id: number }>(
        databaseUrl,
        `INSERT INTO console_people (name, roles, disabled, created_at) VALUES ($1, '[{"role":"editor"}]', 0, $2) RETURNING id`,
        name,
        new Date().toISOString(),
      );
      const session = randomBytes(32).toString('base64url');
      await queryPostgres(
        databaseUrl,
        'INSERT INTO console_sessions (id_hash, person_id, created_at, last_seen_at, expires_at) VALUES ($1, $2, $3, $3, $4)',
        createHash('sha256').update(session).digest('hex'),
        person!.id,
        Date.now(),
        Date.now() + 3_600_000,
      );
      return async (path: string, body: object) => {
        const res = await fetch(consoleOrigin() + path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: consoleOrigin(), cookie: `__Host-console=${session}` },
          body: JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json()) as { post?: { version: number } } };
      };
    }

    it("a post published through one instance's console is on the other's /blog, and after its restart", async () => {
      const consoleCall = await editorCalls('Cluster Editor');
      const slug = 'published-through-the-other-instance';
      const fields = {
        title: 'Published through the other instance',
        excerpt: 'Made on one instance, read on the other.',
        category: 'Guides',
        tags: ['Cluster'],
        author: 'Editorial Team',
        content: 'Shared by both.',
      };
      const created = await consoleCall('/api/posts', { slug, fields });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const listed = async () => ((await json(1, '/blog')).body as string).includes(`href="/blog/${slug}"`);
      // Instance 1's /blog as its page cache holds it.
      assert.equal(await listed(), false);
      assert.equal(await listed(), false);
      const published = await consoleCall(`/api/posts/${slug}`, {
        version: created.body.post!.version,
        action: 'publish',
      });
      assert.equal(published.status, 200, JSON.stringify(published.body));
      const started = Date.now();
      while (!(await listed())) {
        assert.ok(Date.now() - started < 10_000, 'instance 1 lists the post');
        await new Promise((r) => setTimeout(r, 50));
      }
      console.log(`  instance 1 listed the post ${Date.now() - started} ms after the publish`);
      assert.equal((await json(1, `/api/blog/public/posts/${slug}`)).status, 200);

      await stopServerProcess(servers[1]!);
      servers[1] = await start(1);
      assert.equal(await listed(), true, 'still listed after a restart');
      assert.match((await json(1, `/blog/${slug}`)).body as string, /Shared by both\./);
    });

    it("a tool hidden through one instance's console answers 410 on the other", async () => {
      const hide = await editorCalls('Cluster Tool Editor');
      const page = async () => (await fetch(`${base(1)}/tool/cursor`)).status;
      // Instance 1's page as its page cache holds it.
      assert.equal(await page(), 200);
      assert.equal(await page(), 200);
      assert.equal((await hide('/api/tools/cursor/hide', {})).status, 200);
      const started = Date.now();
      while ((await page()) !== 410) {
        assert.ok(Date.now() - started < 10_000, 'instance 1 answers 410');
        await new Promise((r) => setTimeout(r, 50));
      }
      console.log(`  instance 1 answered 410 ${Date.now() - started} ms after the hide`);
      assert.equal((await hide('/api/tools/cursor/unhide', {})).status, 200);
    });

    it('kill -9 of one instance with a write to it in flight loses no acknowledged write', async () => {
      const attempted: string[] = [];
      const acked = new Set<string>();
      let killed = false;
      /** Posts sent to instance 0 and not answered yet; the kill waits for one, and keeps the list. */
      const pendingOn0 = new Set<string>();
      let inFlightAtKill: string[] = [];
      const post = async (i: number, key: string) => {
        if (i === 0) pendingOn0.add(key);
        try {
          return await send(i, key);
        } finally {
          pendingOn0.delete(key);
        }
      };
      const send = async (i: number, key: string) => {
        const res = await fetch(`${base(i)}/api/contact/submit`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            name: 'Cluster durability',
            email: 'cluster@example.com',
            subject: 'general',
            message: `cluster ${key}`,
            idempotencyKey: key,
          }),
        });
        return res.ok && ((await res.json()) as { success?: boolean }).success === true;
      };
      // Six clients, each alternating between the instances; instance 0 is killed after 120 acknowledgements, at a
      // moment when a write to it is in flight.
      await Promise.all(
        Array.from({ length: 6 }, async (_, c) => {
          for (let n = 0; n < 60; n++) {
            const key = `cluster-${c}-${n}`;
            attempted.push(key);
            try {
              if (await post(n % 2, key)) acked.add(key);
            } catch {
              /* instance 0 is gone: this answer was lost */
            }
            // Killed while another client's write to it is in flight (sent, not answered).
            if (acked.size >= 120 && !killed && pendingOn0.size > 0) {
              killed = true;
              inFlightAtKill = [...pendingOn0];
              servers[0]!.kill('SIGKILL');
            }
          }
        }),
      );
      assert.ok(killed, 'instance 0 was killed under load');
      assert.ok(inFlightAtKill.length > 0, 'a write to instance 0 was in flight when it was killed');
      const rowsOf = async () =>
        new Map(
          (
            await queryPostgres<{ message: string; n: number }>(
              databaseUrl,
              `SELECT message, count(*)::int AS n FROM contact_messages WHERE message LIKE 'cluster %' GROUP BY message`,
            )
          ).map((r) => [r.message.slice('cluster '.length), r.n]),
        );
      const stored = await rowsOf();
      assert.deepEqual(
        [...acked].filter((k) => stored.get(k) !== 1),
        [],
        `${acked.size} acknowledged: each stored exactly once`,
      );
      // Clients retry every post on the surviving instance with its key: each answered, each stored once.
      for (const key of attempted) assert.ok(await post(1, key), `the retry of ${key} is answered`);
      const after = await rowsOf();
      assert.deepEqual(
        attempted.filter((k) => after.get(k) !== 1),
        [],
        'every post is stored exactly once after its retry',
      );
      console.log(
        `  ${acked.size} acknowledged, ${attempted.length - acked.size} unanswered (${inFlightAtKill.length} in flight to instance 0 at the kill); all ${attempted.length} stored once after retries`,
      );
    });
  },
);
