/**
 * Every payload of the hostile corpus through every write endpoint: each answer is a 4xx with a reason and nothing
 * stored, or a success whose row holds exactly the text as docs/product.md says it is kept (line breaks unified in
 * multi-line fields, NFC, trimmed; a blank optional text is none), which is inert in the CLI and in CSV. What an
 * accepted body must store is written out here, not taken from the schemas the server uses.
 */
import request from 'supertest';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { loadConfig } from '../config';
import { escapeForDisplay, findForbiddenCharacter } from '@aitools/contracts/text';
import { sql } from 'kysely';
import type { DB } from '../db/connection';
import type { Schema } from '../db/schema';
import { countRows, openTestDatabase } from '../../test/testDatabase';
import { createLogger } from '../middleware/logger';
import { csvField } from '../moderation/service';
import { HOSTILE_BODIES, HOSTILE_TEXTS, HOSTILE_VALUES } from '../../test/hostileCorpus';

type Body = Record<string, unknown>;

interface Endpoint {
  path: string;
  table: keyof Schema;
  valid: Body;
  /** Fields to put a payload in ("data.toolName" is nested). */
  fields: string[];
  /** Values of another JSON type than text that a field takes by design; any other is refused. */
  takes?: Record<string, (value: unknown) => boolean>;
  /** What the row must hold for an accepted body. */
  row: (body: Body) => Body;
  /** The row the answer stored. */
  stored: (db: DB, res: request.Response, expected: Body) => Promise<Body | undefined>;
}

/** An accepted text as stored: line breaks unified (multi-line fields), NFC, trimmed. */
const kept = (value: unknown, multiline = false): unknown =>
  typeof value === 'string' ? (multiline ? value.replace(/\r\n?/g, '\n') : value).normalize('NFC').trim() : value;
/** An optional text as stored: absent, null or blank is none (NULL). */
const optional = (value: unknown, multiline = false): unknown => {
  const text = kept(value, multiline);
  return text == null || text === '' ? null : text;
};
const isNull = (value: unknown) => value === null;

const columns = (row: Body | undefined, keys: string[]) => row && Object.fromEntries(keys.map((k) => [k, row[k]]));

const ENDPOINTS: Endpoint[] = [
  {
    path: '/api/submissions',
    table: 'submissions',
    valid: {
      name: 'Acme AI',
      email: 'owner@acme.io',
      website_url: 'https://acme.io',
      tool_type: 'ai-tool',
      description: 'Tools',
      message: 'Hi',
    },
    fields: ['name', 'email', 'website_url', 'tool_type', 'description', 'message'],
    // The optional texts: null says "none", as leaving them out does.
    takes: { description: isNull, message: isNull },
    row: (b) => ({
      name: kept(b.name),
      email: kept(b.email),
      website_url: kept(b.website_url),
      tool_type: b.tool_type ?? 'ai-tool',
      description: optional(b.description, true),
      message: optional(b.message, true),
    }),
    stored: async (db, res, exp) =>
      columns(
        await db.selectFrom('submissions').selectAll().where('id', '=', res.body.id).executeTakeFirst(),
        Object.keys(exp),
      ),
  },
  {
    path: '/api/contact/submit',
    table: 'contact_messages',
    valid: { name: 'Ada', email: 'ada@example.com', subject: 'other', message: 'Hello' },
    fields: ['name', 'email', 'subject', 'message'],
    row: (b) => ({ name: kept(b.name), email: kept(b.email), subject: b.subject, message: kept(b.message, true) }),
    stored: async (db, _res, exp) =>
      columns(
        await db.selectFrom('contact_messages').selectAll().orderBy('id', 'desc').executeTakeFirst(),
        Object.keys(exp),
      ),
  },
  {
    path: '/api/early-access',
    table: 'early_access',
    valid: { email: 'ads@brand.io' },
    fields: ['email'],
    row: (b) => ({ email: kept(b.email) }),
    // Once per address, case-insensitive: compare with the first stored spelling.
    stored: async (db, _res, exp) => {
      const row = await db
        .selectFrom('early_access')
        .select('email')
        .where(sql`lower(email)`, '=', String(exp.email).toLowerCase())
        .executeTakeFirst();
      return (
        row && { email: String(row.email).toLowerCase() === String(exp.email).toLowerCase() ? exp.email : row.email }
      );
    },
  },
  {
    path: '/api/events',
    table: 'events',
    valid: {
      event: 'tool_page_view',
      data: { toolName: 'Cursor', slug: 'cursor' },
      timestamp: '2026-11-23T10:00:00.000Z',
    },
    fields: ['data.toolName', 'event', 'timestamp'],
    // An event's data holds flat values: text, numbers, true/false and null.
    takes: { 'data.toolName': (v) => v === null || typeof v === 'number' || typeof v === 'boolean' },
    row: (b) => ({
      event: b.event,
      // A "__proto__" key is dropped on the way in (zod's record skips it): never stored.
      data: Object.fromEntries(
        Object.entries(b.data as Body)
          .filter(([k]) => k !== '__proto__')
          .map(([k, v]) => [k, typeof v === 'string' ? v.normalize('NFC') : v]),
      ),
      timestamp: new Date(String(b.timestamp)).toISOString(),
    }),
    stored: async (db) => {
      const row = await db
        .selectFrom('events')
        .select(['event', 'data', 'timestamp'])
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      return { ...row, data: JSON.parse(String(row.data)) };
    },
  },
];

const TABLES: (keyof Schema)[] = [...ENDPOINTS.map((e) => e.table), 'tools', 'idempotency_keys'];
/** Anything a terminal acts on, or that reorders text: C0 but line feed, DEL, C1, bidi controls. */
const TERMINAL_CONTROL = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
/** A formula start at the start of a CSV field's text, of one of its lines, or after a , ; or tab. */
const FORMULA = /(?:^|[\r\n,;\t])[=+\-@\t\r]/;

let db: DB;
let app: Express;

beforeAll(async () => {
  db = await openTestDatabase();
  const env = { ...process.env, NODE_ENV: 'test', WRITE_RATE_LIMIT: '1000000', EVENTS_RATE_LIMIT: '1000000' };
  app = await createApp({ config: loadConfig(env), db, logger: createLogger('silent'), pages: false });
});
afterAll(async () => {
  // Both outcomes were exercised: inert payloads were stored at every endpoint.
  const stored = await counts();
  for (const e of ENDPOINTS) expect(stored[e.table], e.table).toBeGreaterThan(1);
  expect(({} as Body).polluted).toBeUndefined();
  expect(({} as Body).status).toBeUndefined();
  expect(({} as Body).isAdmin).toBeUndefined();
  await db.destroy();
});

const counts = async () =>
  Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, await countRows(db, t)] as const))) as Record<
    keyof Schema,
    number
  >;

function withField(valid: Body, field: string, value: unknown): Body {
  const [head, sub] = field.split('.');
  return sub ? { ...valid, [head]: { ...(valid[head] as Body), [sub]: value } } : { ...valid, [field]: value };
}

/** Every text in the stored row: normalised (NFC, allowed characters only) and inert in the CLI and in CSV. */
function expectInert(row: Body) {
  const texts = Object.values(row)
    .flatMap((v) => (v && typeof v === 'object' ? Object.values(v) : [v]))
    .filter((v): v is string => typeof v === 'string');
  for (const text of texts) {
    expect(text.normalize('NFC')).toBe(text);
    expect(findForbiddenCharacter(text, true)).toBeNull();
    expect(escapeForDisplay(text)).not.toMatch(TERMINAL_CONTROL);
    const csv = csvField(text);
    const unquoted = csv.startsWith('"') ? csv.slice(1, -1).replace(/""/g, '"') : csv;
    expect(unquoted).not.toMatch(FORMULA);
    expect(/[",;\t\r\n]/.test(unquoted) ? csv.startsWith('"') : true).toBe(true);
  }
}

/**
 * Posts one raw body and checks the outcome: stored exactly as `row` says, or refused with a 4xx, a reason (naming
 * `field` when the payload was put in one) and nothing stored. Returns the status.
 */
async function post(endpoint: Endpoint, raw: string, contentType: string | null, field?: string): Promise<number> {
  const before = await counts();
  let req = request(app).post(endpoint.path);
  if (contentType) req = req.set('Content-Type', contentType);
  const res = await req.send(raw);
  if (res.status >= 200 && res.status < 300) {
    expect(res.body.success).toBe(true);
    // body-parser skips a leading BOM, as JSON.parse does not.
    const expected = endpoint.row(JSON.parse(raw.replace(/^\uFEFF/, '')) as Body);
    expect(await endpoint.stored(db, res, expected)).toEqual(expected);
    expectInert(expected);
    const after = await counts();
    expect(after[endpoint.table] - before[endpoint.table]).toBeLessThanOrEqual(1);
    for (const t of TABLES) if (t !== endpoint.table) expect(after[t]).toBe(before[t]);
  } else {
    expect(res.status, `${endpoint.path} ${raw.slice(0, 80)}`).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(await counts()).toEqual(before);
    expect(res.type).toBe('application/json');
    expect(Object.keys(res.body).every((k) => ['success', 'error', 'fieldErrors'].includes(k))).toBe(true);
    expect(res.body.success).toBe(false);
    expect(res.body.error).toMatch(/\S/);
    // Field errors are named by our fields, never by keys the client made up.
    for (const key of Object.keys(res.body.fieldErrors ?? {}))
      expect(key).toMatch(
        /^(form|body|idempotencyKey|event|data|timestamp|name|email|website_url|tool_type|description|message|subject)$/,
      );
    // A refused field says why (a body over the size limit is refused whole, 413).
    if (field && res.status === 400)
      expect(res.body.fieldErrors?.[field.split('.')[0]], `${endpoint.path} ${field}`).toMatch(/\S/);
  }
  return res.status;
}

describe('hostile corpus', () => {
  it('holds at least 200 payloads', () => {
    expect(HOSTILE_TEXTS.length + HOSTILE_VALUES.length + HOSTILE_BODIES.length).toBeGreaterThanOrEqual(200);
  });

  describe.each(HOSTILE_TEXTS)('text: $label', ({ value, name }) => {
    it('in every text field of every write endpoint: a 4xx with its reason and no row, or stored as inert normalised text', async () => {
      for (const endpoint of ENDPOINTS) {
        for (const field of endpoint.fields) {
          const status = await post(
            endpoint,
            JSON.stringify(withField(endpoint.valid, field, value)),
            'application/json',
            field,
          );
          if (field === 'name' && name) expect(status < 300 ? 'store' : 'reject', `${endpoint.path} name`).toBe(name);
        }
      }
    });
  });

  describe.each(HOSTILE_VALUES)('value of the wrong type: $label', ({ value }) => {
    it('in every field of every write endpoint is refused with a 4xx naming the field, unless the field takes that type (null for an optional text)', async () => {
      for (const endpoint of ENDPOINTS)
        for (const field of endpoint.fields) {
          const status = await post(
            endpoint,
            JSON.stringify(withField(endpoint.valid, field, value)),
            'application/json',
            field,
          );
          const takes = endpoint.takes?.[field]?.(value) ?? false;
          expect(status < 300 ? 'stored' : 'refused', `${endpoint.path} ${field}`).toBe(takes ? 'stored' : 'refused');
        }
    });
  });

  describe.each(HOSTILE_BODIES)('body: $label', ({ body, contentType }) => {
    it('to every write endpoint: a 4xx with its reason and no row, or stored as inert normalised text', async () => {
      for (const endpoint of ENDPOINTS) await post(endpoint, body(endpoint.valid), contentType);
    });
  });
});
