import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Express } from 'express';
import { createApp } from '../app';
import { loadConfig } from '../config';
import type { DB } from '../db/connection';
import { openTestDatabase } from '../../test/testDatabase';
import { createLogger } from '../middleware/logger';
import { draft, makeTar, makeTgz, releaseEntries } from '../../test/tarFixture';
import { createToken, revokeToken } from './tokens';
import { KEEP_RELEASES } from './store';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readManifest } from './manifestFile';
import { listAudit } from '../content/audit';

let app: Express;
let db: DB;
let dir: string;
let releasesDir: string;
let legal: string;
let directory: string;
let operator: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'release-api-test-'));
  releasesDir = join(dir, 'releases');
  const config = loadConfig({
    NODE_ENV: 'test',
    RELEASES_DIR: releasesDir,
    PREVIEW_SECRET: 'test-secret',
    RELEASE_UPLOAD_BYTES: '20000',
    RELEASE_UPLOADS_PER_MINUTE: '8',
    SITE_ORIGIN: 'https://site.example',
  });
  db = await openTestDatabase();
  app = await createApp({ config, db, logger: createLogger('silent'), pages: false });
  legal = await createToken(db, { label: 'legal-ci', remotes: ['legal'] });
  directory = await createToken(db, { label: 'directory-ci', remotes: ['directory'] });
  operator = await createToken(db, { label: 'ops', remotes: ['*'] });
});
afterAll(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const upload = (token: string | null, body: Buffer, type = 'application/gzip') => {
  const r = request(app).post('/api/releases/legal').set('Content-Type', type);
  return (token ? r.set('Authorization', `Bearer ${token}`) : r).send(body);
};
const stored = () => (existsSync(join(releasesDir, 'legal')) ? readdirSync(join(releasesDir, 'legal')) : []);

describe('release API', () => {
  it('refuses no token, an unknown token (401), another remote (403) and an unknown remote (404)', async () => {
    const none = await upload(null, makeTgz(releaseEntries()));
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(none.body).toMatchObject({ success: false, error: expect.stringMatching(/Authorization: Bearer/) });
    expect((await upload('aitr_' + 'x'.repeat(43), makeTgz(releaseEntries()))).status).toBe(401);
    const other = await upload(directory, makeTgz(releaseEntries()));
    expect(other.status).toBe(403);
    expect(other.body.error).toMatch(/directory-ci.*not legal/);
    expect((await request(app).get('/api/releases/nope').set('Authorization', `Bearer ${operator}`)).status).toBe(404);
    expect((await request(app).get('/api/releases/legal').set('Authorization', `Bearer ${directory}`)).status).toBe(
      403,
    );
    expect(stored()).toEqual([]);
  });

  it('refuses a small body of compressed padding after the archive with its reason (the time: bench/uploadBomb)', async () => {
    const bomb = gzipSync(Buffer.concat([makeTar(releaseEntries()), Buffer.alloc(16 * 1024 * 1024)]));
    expect(bomb.length).toBeLessThan(20_000);
    const res = await upload(legal, bomb);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/goes on after its end-of-archive marker/);
    expect(stored()).toEqual([]);
  });

  it('refuses a body that is not gzip (415 by type, 400 by content) and one over the size limit (413)', async () => {
    expect((await upload(legal, Buffer.from('{}'), 'application/json')).status).toBe(415);
    const notGzip = await upload(legal, Buffer.from('hello'));
    expect(notGzip.status).toBe(400);
    expect(notGzip.body.error).toMatch(/not gzip/);
    const big = await upload(legal, Buffer.alloc(30_000, 1));
    expect(big.status).toBe(413);
    expect(big.body.error).toMatch(/larger than 20000 bytes/);
    expect(stored()).toEqual([]);
  });

  it('reads an activation or rollback body as JSON only: 415 for another type, 400 for bytes not UTF-8, 413 over 4 kB', async () => {
    const post = (path: string) =>
      request(app).post(`/api/releases/legal/${path}`).set('Authorization', `Bearer ${legal}`);
    const plain = await post('activate').set('Content-Type', 'text/plain').send('{"id":"x"}');
    expect(plain.status).toBe(415);
    expect(plain.body.error).toMatch(/Content-Type: application\/json/);
    const sending = post('rollback').set('Content-Type', 'application/json');
    sending.write(Buffer.from('{"to":"\xff"}', 'latin1'));
    expect((await sending).body).toEqual({ success: false, error: 'Request body is not valid UTF-8' });
    const big = await post('rollback').send({ to: 'a'.repeat(5000) });
    expect(big.status).toBe(413);
    // The archive's own limit is not this one: the answer does not speak of it.
    expect(big.body.error).not.toMatch(/archive|RELEASE_UPLOAD_BYTES/);
    expect(readManifest(releasesDir).remotes.legal).toBeUndefined();
  });

  it('stores an upload without activating it, answers its preview link, then activates and rolls back under the token label', async () => {
    const res = await upload(operator, makeTgz(releaseEntries()));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      success: true,
      id: draft().id,
      previewUrl: expect.stringMatching(/^https:\/\/site\.example\/__preview\/legal\/[\w.-]+\?exp=\d+&sig=[\w-]+$/),
    });
    expect(stored()).toEqual([draft().id]);
    expect(readManifest(releasesDir).remotes.legal).toBeUndefined();

    // The preview link sets this browser's cookie; a changed signature is refused.
    const link = new URL(res.body.previewUrl as string);
    const open = await request(app).get(link.pathname + link.search);
    expect(open.status).toBe(303);
    expect(open.headers.location).toBe('/privacy');
    expect(String(open.headers['set-cookie'])).toMatch(
      /^preview_legal=[\w.-]+:\d+:[\w-]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax/,
    );
    // Its first character changed (to another one: a signature may already start with "A").
    const forged = link.search.replace(/sig=(.)/, (_, first: string) => `sig=${first === 'A' ? 'B' : 'A'}`);
    expect((await request(app).get(link.pathname + forged)).status).toBe(403);

    const again = await upload(legal, makeTgz(releaseEntries()));
    expect(again.status).toBe(409);

    const second = draft({ id: '1.0.1-20261125T130000Z-abcdef13', builtAt: '2026-11-25T13:00:00.000Z' });
    expect((await upload(legal, makeTgz(releaseEntries(second)))).status).toBe(201);
    for (const id of [draft().id, second.id]) {
      const r = await request(app)
        .post('/api/releases/legal/activate')
        .set('Authorization', `Bearer ${legal}`)
        .send({ id });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ success: true, active: id });
    }
    expect(
      (
        await request(app)
          .post('/api/releases/legal/activate')
          .set('Authorization', `Bearer ${legal}`)
          .send({ id: 'nope' })
      ).status,
    ).toBe(404);
    expect(
      (
        await request(app)
          .post('/api/releases/legal/activate')
          .set('Authorization', `Bearer ${legal}`)
          .send({ id: '../x' })
      ).status,
    ).toBe(400);
    const back = await request(app)
      .post('/api/releases/legal/rollback')
      .set('Authorization', `Bearer ${legal}`)
      .send({});
    expect(back.body).toMatchObject({ success: true, active: draft().id, from: second.id });

    const list = await request(app).get('/api/releases/legal').set('Authorization', `Bearer ${legal}`);
    expect(list.status).toBe(200);
    expect(list.body.data.active).toBe(draft().id);
    expect(list.body.data.releases.map((r: { id: string; releasedBy: string }) => [r.id, r.releasedBy])).toEqual([
      [second.id, 'legal-ci'],
      [draft().id, 'ops'],
    ]);
    expect(list.body.data.history.map((e: { action: string; by: string }) => `${e.action} by ${e.by}`)).toEqual([
      'release by legal-ci',
      'release by legal-ci',
      'rollback by legal-ci',
    ]);

    // Each change is in the audit trail under the token's label, and so is the refusal of another remote's token.
    const audit = await listAudit(db, { actor: 'token:' });
    expect(audit.entries.map((e) => `${e.action} ${e.target} by ${e.actor} ${e.outcome}`).reverse()).toEqual([
      'release.change legal by token:directory-ci refused',
      'release.read legal by token:directory-ci refused',
      `release.upload legal by token:ops ok`,
      `release.upload legal by token:legal-ci ok`,
      'release.activate legal by token:legal-ci ok',
      'release.activate legal by token:legal-ci ok',
      'release.rollback legal by token:legal-ci ok',
    ]);
  });

  it('refuses a hostile archive with a reason and writes nothing outside the store', async () => {
    const res = await upload(
      legal,
      makeTgz([...releaseEntries(draft({ id: '9.9.9-x' })), { path: '../../escaped.txt', body: 'x' }]),
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/climbs out/);
    expect(existsSync(join(dir, 'escaped.txt'))).toBe(false);
    expect(stored()).not.toContain('9.9.9-x');
  });

  it('limits uploads per token (429), and refuses a revoked token at once', async () => {
    const fresh = await createToken(db, { label: 'limited', remotes: ['legal'] });
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await upload(fresh, Buffer.from('not gzip'))).status);
    expect(statuses).toEqual([...Array(8).fill(400), 429]);
    // Another token has its own budget.
    expect((await upload(operator, Buffer.from('not gzip'))).status).toBe(400);
    expect((await request(app).get('/api/releases/legal').set('Authorization', `Bearer ${legal}`)).status).toBe(200);
    await revokeToken(db, 'legal-ci');
    expect((await request(app).get('/api/releases/legal').set('Authorization', `Bearer ${legal}`)).status).toBe(401);
  });
});

describe('uploads, bounded', () => {
  it('stores one upload of a remote at a time (429 with Retry-After), while another remote uploads', async () => {
    const team = await createToken(db, { label: 'legal-slow', remotes: ['legal'] });
    const other = await createToken(db, { label: 'directory-other', remotes: ['directory'] });
    const server: Server = app.listen(0);
    const { port } = server.address() as AddressInfo;
    // An upload whose body is still arriving.
    const slow = httpRequest({
      port,
      method: 'POST',
      path: '/api/releases/legal',
      headers: { Authorization: `Bearer ${team}`, 'Content-Type': 'application/gzip', 'Content-Length': '10000' },
    });
    slow.on('error', () => {});
    slow.write(Buffer.alloc(100));
    try {
      await vi.waitFor(
        async () => {
          const second = await request(server)
            .post('/api/releases/legal')
            .set('Authorization', `Bearer ${team}`)
            .set('Content-Type', 'application/gzip')
            .send(Buffer.from('not gzip'));
          expect(second.status).toBe(429);
          expect(second.headers['retry-after']).toBe('30');
          expect(second.body.error).toBe(
            'A release of legal is being uploaded: send the next one when it has been stored.',
          );
        },
        { timeout: 10_000, interval: 50 },
      );
      const elsewhere = await request(server)
        .post('/api/releases/directory')
        .set('Authorization', `Bearer ${other}`)
        .set('Content-Type', 'application/gzip')
        .send(Buffer.from('not gzip'));
      expect(elsewhere.status).toBe(400);
    } finally {
      slow.destroy();
    }
    // Once it is gone, the remote uploads again.
    await vi.waitFor(async () => expect((await upload(team, Buffer.from('not gzip'))).status).toBe(400), {
      timeout: 10_000,
      interval: 50,
    });
    server.close();
  });

  it('keeps the newest releases as uploads arrive, and always the one just stored', async () => {
    const team = await createToken(db, { label: 'legal-many', remotes: ['legal'] });
    const ids: string[] = [];
    for (let i = 0; i < KEEP_RELEASES + 1; i++) {
      const d = draft({ id: `2.0.${i}-20261201T10000${i}Z-abcdef0${i}`, builtAt: `2026-12-01T10:00:0${i}.000Z` });
      expect((await upload(team, makeTgz(releaseEntries(d)))).status).toBe(201);
      ids.push(d.id);
    }
    const active = readManifest(releasesDir).remotes.legal!.active;
    // The newest KEEP_RELEASES, the active one and the one a rollback returns to; the older upload is gone.
    expect(stored()).toEqual(expect.arrayContaining([...ids.slice(1), active]));
    expect(stored()).not.toContain(ids[0]);
    expect(stored().length).toBeLessThanOrEqual(KEEP_RELEASES + 2);
    // An upload built long ago is older than every stored release, and kept until the next one prunes.
    const old = draft({ id: '0.9.0-20200101T000000Z-abcdef99', builtAt: '2020-01-01T00:00:00.000Z' });
    expect((await upload(team, makeTgz(releaseEntries(old)))).status).toBe(201);
    expect(stored()).toContain(old.id);
  });
});
