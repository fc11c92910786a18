import { createServer, type Server } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../app';
import { loadConfig } from '../config';
import type { DB } from '../db/connection';
import type { Schema } from '../db/schema';
import { countRows, openTestDatabase } from '../../test/testDatabase';
import { createLogger } from '../middleware/logger';

let db: DB;
let app: Express;

async function buildApp(env: Record<string, string> = {}) {
  db = await openTestDatabase();
  app = await createApp({
    config: loadConfig({ ...process.env, NODE_ENV: 'test', ...env }),
    db,
    logger: createLogger('silent'),
    pages: false,
  });
}

const count = (table: keyof Schema) => countRows(db, table);

const submission = {
  name: '  Acme AI ',
  email: 'owner@acme.io',
  website_url: 'https://acme.io',
  tool_type: 'mcp-server',
  description: 'An MCP server',
  message: '',
};

beforeEach(async () => {
  await buildApp();
});
afterEach(() => db.destroy());

describe('POST /api/submissions', () => {
  it('stores a pending row and answers 201 with its id', async () => {
    const res = await request(app).post('/api/submissions').send(submission);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true, id: expect.any(Number) });
    const row = await db.selectFrom('submissions').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      name: 'Acme AI',
      email: 'owner@acme.io',
      website_url: 'https://acme.io',
      tool_type: 'mcp-server',
      description: 'An MCP server',
      message: null,
      status: 'pending',
      tool_slug: null,
    });
    expect(row.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('defaults the tool type and stores empty optional texts as NULL', async () => {
    const res = await request(app)
      .post('/api/submissions')
      .send({ name: 'B', email: 'b@b.co', website_url: 'http://b.co' });
    expect(res.status).toBe(201);
    expect(
      await db.selectFrom('submissions').select(['tool_type', 'description', 'message']).executeTakeFirst(),
    ).toEqual({ tool_type: 'ai-tool', description: null, message: null });
  });

  it.each([
    ['name', '', 'Name is required'],
    ['email', '', 'Email is required'],
    ['email', 'owner-at-acme', 'Please enter a valid email address'],
    ['website_url', '', 'Website URL is required'],
    ['website_url', 'www.acme.io', 'Please enter a valid URL (starting with http:// or https://)'],
    ['message', 'm'.repeat(501), 'Message must be 500 characters or less'],
    ['tool_type', 'browser-extension', 'Please choose a tool type'],
  ])('answers 400 for an invalid %s (%j) and stores nothing', async (field, value, message) => {
    const res = await request(app)
      .post('/api/submissions')
      .send({ ...submission, [field]: value });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: expect.any(String), fieldErrors: { [field]: message } });
    expect(await count('submissions')).toBe(0);
  });

  it('drops unknown fields: a client cannot approve its own submission', async () => {
    const res = await request(app)
      .post('/api/submissions')
      .send({ ...submission, status: 'approved', tool_slug: 'hijack', id: 500 });
    expect(res.status).toBe(201);
    expect(res.body.id).not.toBe(500);
    expect(await db.selectFrom('submissions').select(['status', 'tool_slug']).executeTakeFirst()).toEqual({
      status: 'pending',
      tool_slug: null,
    });
  });

  it('refuses bodies over the limit with 413 and stores nothing', async () => {
    const res = await request(app)
      .post('/api/submissions')
      .send({ ...submission, description: 'd'.repeat(40_000) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ success: false, error: 'Request body too large' });
    expect(await count('submissions')).toBe(0);
  });

  it('answers 400 for malformed JSON and 415 for a body of another type', async () => {
    const bad = await request(app).post('/api/submissions').set('Content-Type', 'application/json').send('{"name":');
    expect(bad.status).toBe(400);
    expect(bad.body.success).toBe(false);
    for (const type of ['form', 'text/plain', 'multipart/form-data; boundary=x', 'application/xml']) {
      const other = await request(app).post('/api/submissions').type(type).send('name=x');
      expect([other.status, other.body], type).toEqual([
        415,
        { success: false, error: 'Send the body as JSON (Content-Type: application/json)' },
      ]);
    }
    expect(await count('submissions')).toBe(0);
  });
});

describe('POST /api/contact/submit', () => {
  const contact = { name: 'Ada', email: 'ada@example.com', subject: 'partnership', message: 'Let us talk' };

  it('stores the message and answers 200 { success: true }', async () => {
    const res = await request(app)
      .post('/api/contact/submit')
      .send({ ...contact, extra: 'dropped' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await db.selectFrom('contact_messages').select(['name', 'email', 'subject', 'message']).execute()).toEqual([
      contact,
    ]);
  });

  it.each([
    ['name', '', 'Name is required'],
    ['email', 'x', 'Please enter a valid email address'],
    ['subject', 'spam', 'Please choose a subject'],
    ['message', '', 'Message is required'],
  ])('answers 400 for an invalid %s and stores nothing', async (field, value, message) => {
    const res = await request(app)
      .post('/api/contact/submit')
      .send({ ...contact, [field]: value });
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors).toEqual({ [field]: message });
    expect(await count('contact_messages')).toBe(0);
  });
});

describe('POST /api/early-access', () => {
  it('stores the subscriber record once per email (case-insensitive) and answers success both times', async () => {
    const first = await request(app).post('/api/early-access').send({ email: 'ads@brand.com' });
    const second = await request(app).post('/api/early-access').send({ email: 'ADS@brand.com' });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.body).toEqual({ success: true });
    expect(second.body).toEqual({ success: true });
    const rows = await db
      .selectFrom('early_access')
      .select(['email', 'type', 'source', 'timestamp'])
      .orderBy('id')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      email: 'ads@brand.com',
      type: 'early_access_advertising',
      source: 'advertise_page_modal',
    });
    expect(Number.isNaN(Date.parse(rows[0].timestamp))).toBe(false);
  });

  it('answers an address with capital letters beyond ASCII again as listed, never a 5xx', async () => {
    for (const email of ['Zoë.Ö@example.com', 'Zoë.Ö@example.com', 'ÉX@example.co', 'Éx@example.co']) {
      const res = await request(app).post('/api/early-access').send({ email });
      expect([email, res.status, res.body]).toEqual([email, 200, { success: true }]);
    }
  });

  it('answers 400 for a missing or invalid email and stores nothing', async () => {
    expect((await request(app).post('/api/early-access').send({})).body.fieldErrors).toEqual({
      email: 'Email is required',
    });
    expect((await request(app).post('/api/early-access').send({ email: 'x@' })).status).toBe(400);
    expect(await count('early_access')).toBe(0);
  });
});

describe('rate limit', () => {
  const TOO_MANY = { success: false, error: 'Too many requests. Please wait a minute and try again.' };

  it("answers 429 in the error shape once a client exceeds a form's limit, and each form has its own budget", async () => {
    await db.destroy();
    await buildApp({ WRITE_RATE_LIMIT: '2' });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push(
        (
          await request(app)
            .post('/api/early-access')
            .send({ email: `a${i}@b.co` })
        ).status,
      );
    expect(statuses).toEqual([200, 200, 429]);
    const limited = await request(app).post('/api/early-access').send({ email: 'late@b.co' });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual(TOO_MANY);
    expect(limited.headers['ratelimit-policy']).toContain('early-access');
    // The other forms still have their whole budget.
    expect((await request(app).post('/api/submissions').send(submission)).status).toBe(201);
    expect(
      (
        await request(app)
          .post('/api/contact/submit')
          .send({ name: 'A', email: 'a@b.co', subject: 'other', message: 'hi' })
      ).status,
    ).toBe(200);
    expect(await count('early_access')).toBe(2);
  });

  it('validates before counting: invalid posts get 400 and never spend the budget of valid ones', async () => {
    await db.destroy();
    await buildApp({ WRITE_RATE_LIMIT: '2' });
    for (let i = 0; i < 10; i++) expect((await request(app).post('/api/submissions').send({})).status).toBe(400);
    const valid = [
      await request(app).post('/api/submissions').send(submission),
      await request(app).post('/api/submissions').send(submission),
    ];
    expect(valid.map((r) => r.status)).toEqual([201, 201]);
    expect((await request(app).post('/api/submissions').send(submission)).status).toBe(429);
    expect(await count('submissions')).toBe(2);
  });

  it('ignores X-Forwarded-For by default: rotating it does not get past the limit', async () => {
    await db.destroy();
    await buildApp({ WRITE_RATE_LIMIT: '3' });
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      statuses.push(
        (
          await request(app)
            .post('/api/contact/submit')
            .set('X-Forwarded-For', `203.0.113.${i}`)
            .send({ name: 'A', email: 'a@b.co', subject: 'other', message: `m${i}` })
        ).status,
      );
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.slice(3).every((s) => s === 429)).toBe(true);
    expect(await count('contact_messages')).toBe(3);
  });

  it("with TRUST_PROXY set to the proxy's address, counts per forwarded client address", async () => {
    await db.destroy();
    await buildApp({ WRITE_RATE_LIMIT: '1', TRUST_PROXY: 'loopback' });
    const post = (ip: string, n: number) =>
      request(app)
        .post('/api/early-access')
        .set('X-Forwarded-For', ip)
        .send({ email: `v${n}@b.co` });
    expect((await post('198.51.100.1', 1)).status).toBe(200);
    expect((await post('198.51.100.2', 2)).status).toBe(200);
    expect((await post('198.51.100.1', 3)).status).toBe(429);
  });
});

describe('idempotency', () => {
  const key = 'retry-0123456789abcdef';

  it('answers a retried submission (header) with the first result and stores one row', async () => {
    const first = await request(app).post('/api/submissions').set('Idempotency-Key', key).send(submission);
    const retry = await request(app).post('/api/submissions').set('Idempotency-Key', key).send(submission);
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(await count('submissions')).toBe(1);
    expect(await db.selectFrom('idempotency_keys').select(['endpoint', 'key']).execute()).toEqual([
      { endpoint: 'submissions', key },
    ]);
  });

  it('takes the key from the hidden form field too, per endpoint', async () => {
    const contact = { name: 'Ada', email: 'ada@example.com', subject: 'other', message: 'Hello', idempotencyKey: key };
    for (let i = 0; i < 3; i++)
      expect((await request(app).post('/api/contact/submit').send(contact)).body).toEqual({ success: true });
    expect(await count('contact_messages')).toBe(1);
    // The same key on another endpoint is another write.
    expect(
      (
        await request(app)
          .post('/api/submissions')
          .send({ ...submission, idempotencyKey: key })
      ).status,
    ).toBe(201);
    expect(await count('submissions')).toBe(1);
  });

  it('stores each post without a key, and each distinct key once', async () => {
    await request(app).post('/api/submissions').send(submission);
    await request(app).post('/api/submissions').send(submission);
    await request(app).post('/api/submissions').set('Idempotency-Key', `${key}-a`).send(submission);
    await request(app).post('/api/submissions').set('Idempotency-Key', `${key}-b`).send(submission);
    expect(await count('submissions')).toBe(4);
  });

  it('refuses a key reused with different data (422) and a malformed key (400), storing nothing more', async () => {
    await request(app).post('/api/submissions').set('Idempotency-Key', key).send(submission);
    const reused = await request(app)
      .post('/api/submissions')
      .set('Idempotency-Key', key)
      .send({ ...submission, name: 'Other' });
    expect(reused.status).toBe(422);
    expect(reused.body.fieldErrors).toEqual({
      idempotencyKey: 'This idempotency key was already used for a different request',
    });
    const bad = await request(app)
      .post('/api/submissions')
      .set('Idempotency-Key', 'no spaces allowed')
      .send(submission);
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors).toEqual({ idempotencyKey: 'Invalid idempotency key' });
    expect(await count('submissions')).toBe(1);
  });

  it('a retry after an invalid first post stores the corrected form', async () => {
    expect(
      (
        await request(app)
          .post('/api/submissions')
          .set('Idempotency-Key', key)
          .send({ ...submission, email: 'nope' })
      ).status,
    ).toBe(400);
    expect((await request(app).post('/api/submissions').set('Idempotency-Key', key).send(submission)).status).toBe(201);
    expect(await count('submissions')).toBe(1);
  });
});

describe('email-marketing forwarding', () => {
  let server: Server;
  let received: { contentType?: string; body: string }[];
  let answer: number;

  beforeEach(async () => {
    received = [];
    answer = 200;
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ contentType: req.headers['content-type'], body });
        res.statusCode = answer;
        res.end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    await db.destroy();
    const { port } = server.address() as { port: number };
    await buildApp({ EMAIL_MARKETING_URL: `http://127.0.0.1:${port}/subscribe` });
  });
  afterEach(() => new Promise<void>((r) => server.close(() => r())));

  /** The addresses the service received, once it has received `n` posts (fails, naming them, if it never does). */
  const receivedEmails = (n: number) =>
    vi.waitFor(() => {
      expect(received).toHaveLength(n);
      return received.map((r) => new URLSearchParams(r.body).get('fields[email]'));
    });

  it('forwards a new signup form-encoded, once (also when the post is retried with its key)', async () => {
    await request(app)
      .post('/api/early-access')
      .set('Idempotency-Key', 'signup-key-1')
      .send({ email: 'new@brand.com' });
    expect(await receivedEmails(1)).toEqual(['new@brand.com']);
    await request(app)
      .post('/api/early-access')
      .set('Idempotency-Key', 'signup-key-1')
      .send({ email: 'new@brand.com' });
    await request(app).post('/api/early-access').send({ email: 'new@brand.com' });
    // A later new signup is forwarded after anything the two repeats above would have sent: once it has arrived,
    // a second forward of new@brand.com would be there too.
    await request(app).post('/api/early-access').send({ email: 'later@brand.com' });
    expect(await receivedEmails(2)).toEqual(['new@brand.com', 'later@brand.com']);
    expect(received[0].contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(received[0].body))).toEqual({
      'fields[email]': 'new@brand.com',
      'ml-submit': '1',
      anticsrf: 'true',
    });
  });

  it('still answers success when the service fails', async () => {
    answer = 500;
    const res = await request(app).post('/api/early-access').send({ email: 'fail@brand.com' });
    expect(res.body).toEqual({ success: true });
    expect(await receivedEmails(1)).toEqual(['fail@brand.com']);
    expect(await count('early_access')).toBe(1);
  });
});
