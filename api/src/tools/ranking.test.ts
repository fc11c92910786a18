/**
 * The directory search's ranking rule (docs/product.md, Directory search) on a small catalogue written for it, on
 * SQLite and, with TEST_DATABASE_URL, on Postgres: the same answers from both engines.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../app';
import { loadConfig } from '../config';
import type { DB } from '../db/connection';
import { openTestDatabase } from '../../test/testDatabase';
import { createLogger } from '../middleware/logger';
import { upsertTool, type ToolInput } from './repository';
import { findTools } from './search';
import { searchWords } from './searchWords';

let app: Express;
let db: DB;

const tool = (slug: string, over: Partial<ToolInput>): ToolInput => ({
  slug,
  name: slug,
  description: '',
  website: `https://${slug}.example`,
  category: 'Productivity',
  tags: [],
  popularityScore: 5,
  ...over,
});

const CATALOGUE: ToolInput[] = [
  tool('scribe', {
    name: 'Scribe',
    description: 'Records and transcribes meetings on every call.',
    popularityScore: 1,
  }),
  tool('notepad', { name: 'Notepad', description: 'A notepad for meetings.', popularityScore: 9 }),
  tool('captioner', { name: 'Captioner', description: 'Transcription of lectures.', popularityScore: 2 }),
  tool('deckbot', { name: 'Deckbot', description: 'Turns an outline into a presentation.', tags: ['presentations'] }),
  tool('pixel', { name: 'Pixel', description: 'Edits every image you upload.', category: 'Design & Creative' }),
  tool('imagery', { name: 'Image Studio', description: 'A creative suite.', category: 'Design & Creative' }),
  tool('deep-image', { name: 'Canvas', description: 'A creative suite with an image editor deep inside.' }),
  tool('sql-server', {
    name: 'Query Server',
    description: 'An MCP server for SQL databases.',
    category: 'MCP Servers',
    tags: ['mcp-server', 'sql'],
  }),
  tool('sql-helper', { name: 'SQL Helper', description: 'Explains SQL to analysts.', category: 'Development' }),
  tool('popular', { name: 'Popular Notes', description: 'Notes.', popularityScore: 9.9 }),
  tool('quiet', { name: 'Quiet Notes', description: 'Notes.', popularityScore: 1.1 }),
  tool('tasker', { name: 'Tasker', description: 'Keeps your tasks in order.' }),
  tool('brief', { name: 'Brief', description: 'Translates letters.', popularityScore: 2 }),
  tool('verbose', {
    name: 'Verbose',
    description:
      'A suite of many things for offices, teams, schools and families: calendars, budgets, recipes, travel plans, ' +
      'reading lists, photo albums, contact books, and it also translates letters among its other features.',
    popularityScore: 8,
  }),
  tool('hostbot', { name: 'Hostbot', description: 'A coding helper that runs self-hosted.', category: 'Development' }),
];

beforeAll(async () => {
  db = await openTestDatabase();
  for (const t of CATALOGUE) await upsertTool(db, t);
  app = await createApp({
    config: loadConfig({ ...process.env, NODE_ENV: 'test' }),
    db,
    logger: createLogger('silent'),
    pages: false,
  });
});

const found = async (text: string) => (await findTools(db, text)).map((t) => t.slug);
const queried = async (query: Record<string, string>) => {
  const res = await request(app).get('/api/tools/query').query(query);
  expect(res.status).toBe(200);
  return (res.body.tools as { slug: string }[]).map((t) => t.slug);
};

describe('the ranking rule', () => {
  it('matches word forms: transcribe finds "transcribes" and "transcription", images finds "image"', async () => {
    expect(await found('transcribe')).toEqual(expect.arrayContaining(['scribe', 'captioner']));
    expect(await found('images')).toEqual(expect.arrayContaining(['pixel', 'deep-image']));
  });

  it('reads the words in any order, and ignores stop words', async () => {
    expect((await found('transcribe meetings'))[0]).toBe('scribe');
    expect((await found('meetings transcribe'))[0]).toBe('scribe');
    expect((await found('the meetings to transcribe for me'))[0]).toBe('scribe');
  });

  it('ranks a tool with every word above one with some, whatever its popularity', async () => {
    const slugs = await found('transcribe meetings');
    expect(slugs.indexOf('scribe')).toBeLessThan(slugs.indexOf('notepad'));
    expect(slugs.indexOf('scribe')).toBeLessThan(slugs.indexOf('captioner'));
  });

  it('shows the best partial matches when no tool has every word', async () => {
    expect((await found('transcribe podcasts zzqx'))[0]).toBe('scribe');
  });

  it('weighs a match in the name above one deep in the description', async () => {
    expect((await found('studio'))[0]).toBe('imagery');
    const image = await found('image');
    expect(image.indexOf('imagery')).toBeLessThan(image.indexOf('deep-image'));
  });

  it('finds other words for the same thing from the vocabulary (slides → presentation, photo → image, database → sql)', async () => {
    expect(await found('slides')).toContain('deckbot');
    expect(await found('photo')).toEqual(expect.arrayContaining(['pixel', 'deep-image']));
    expect((await found('database'))[0]).toBe('sql-server');
    expect(searchWords('photos')[0]).toEqual(expect.arrayContaining(['photos', 'image']));
  });

  it('counts two typed words for one idea once: a tool with two ideas ranks above one with one idea typed thrice', async () => {
    expect(searchWords('photo picture image')).toHaveLength(1);
    const slugs = await found('photo picture image transcribe meetings');
    expect(slugs[0]).toBe('scribe');
    expect(slugs.indexOf('scribe')).toBeLessThan(slugs.indexOf('pixel'));
  });

  it('gives no other words for a word that only shares a stem with an entry (programs, apps, is not programming)', () => {
    expect(searchWords('programming')[0]).toEqual(expect.arrayContaining(['programming', 'coding']));
    expect(searchWords('run programs')).toEqual([['run'], ['programs']]);
    // Another idea, so not one group with "programming" either way round.
    expect(searchWords('programs for programming').map((g) => g[0])).toEqual(['programs', 'programming']);
    expect(searchWords('programming programs').map((g) => g[0])).toEqual(['programming', 'programs']);
  });

  it('reads a hyphenated word the vocabulary knows as one word (to-dos → todos, another word for tasks)', async () => {
    expect(searchWords('to-dos')[0]).toEqual(expect.arrayContaining(['todos', 'tasks']));
    expect((await found('my to-dos'))[0]).toBe('tasker');
    // One the vocabulary does not know stays two words.
    expect(searchWords('zz-top').map((g) => g[0])).toEqual(['zz', 'top']);
  });

  it('knows a phrase of the vocabulary as one idea ("own servers" → self hosted), never searching its stop words alone', async () => {
    expect(searchWords('runs on my own servers')).toEqual([
      ['runs'],
      expect.arrayContaining(['self hosted', 'selfhosted']),
    ]);
    expect(searchWords('runs on my own servers')[1]).not.toContain('own servers');
    expect(searchWords('text to speech')[0][0]).toBe('text to speech');
    // "Query Server" has "server" in its name; the idea typed is a place to run the tool.
    expect((await found('runs on my own servers'))[0]).toBe('hostbot');
    expect(await found('runs on my own servers')).not.toContain('sql-server');
  });

  it('ranks a short text with the words above a long one that has them once, on both engines', async () => {
    const slugs = await found('translates letters');
    expect(slugs.indexOf('brief')).toBeLessThan(slugs.indexOf('verbose'));
  });

  it('breaks ties by popularity only', async () => {
    expect(await found('notes')).toEqual(expect.arrayContaining(['popular', 'quiet']));
    const slugs = await found('notes');
    expect(slugs.indexOf('popular')).toBeLessThan(slugs.indexOf('quiet'));
  });

  it('puts a tool whose name or description contains the whole typed text first', async () => {
    // "notepad for meetings" is Notepad's text as typed; Scribe has the words too, and more weight for them.
    expect((await found('notepad for meetings'))[0]).toBe('notepad');
    expect((await found('a creative suite with'))[0]).toBe('deep-image');
  });

  it('finds nothing for words no tool has, with "did you mean" names', async () => {
    expect(await found('zzqx')).toEqual([]);
    const res = await request(app).get('/api/tools').query({ search: 'scrbie' });
    expect(res.body).toMatchObject({ data: [], suggestions: expect.arrayContaining(['Scribe']) });
  });
});

describe('GET /api/tools/query with a search', () => {
  it('orders by Best match unless another sort is chosen; filters narrow the ranked tools', async () => {
    const best = await queried({ search: 'sql' });
    expect(best.slice(0, 2).sort()).toEqual(['sql-helper', 'sql-server']);
    expect(await queried({ search: 'sql', type: 'mcp-servers' })).toEqual(['sql-server']);
    expect(await queried({ search: 'sql', category: 'Development' })).toEqual(['sql-helper']);
    expect(await queried({ search: 'transcribe meetings', sort: 'alphabetical' })).toEqual([
      'captioner',
      'notepad',
      'scribe',
    ]);
  });

  it('cuts pages from the ranked tools with the count of all of them; a page past the last is the last', async () => {
    const all = await found('notes');
    const page = async (n: string) =>
      (await request(app).get('/api/tools/query').query({ search: 'notes', size: '12', page: n })).body;
    const first = await page('1');
    expect(first.total).toBe(all.length);
    expect(first.tools.map((t: { slug: string }) => t.slug)).toEqual(all.slice(0, 12));
    const past = await page('40');
    expect(past.page).toBe(Math.ceil(all.length / 12));
    expect(past.tools.map((t: { slug: string }) => t.slug)).toEqual(all.slice((past.page - 1) * 12, past.page * 12));
  });

  it('filters in the database by the same readings as the filter bar (pricing, type, no open findings)', async () => {
    await upsertTool(db, tool('free-notes', { name: 'Free Notes', description: 'Notes.', pricing: 'Free' }));
    await upsertTool(db, tool('paid-notes', { name: 'Paid Notes', description: 'Notes.', pricing: 'Paid' }));
    expect(await queried({ search: 'notes', type: 'free' })).toEqual(['free-notes']);
    expect(await queried({ search: 'notes', type: 'paid' })).toEqual(['paid-notes']);
    expect(await queried({ search: 'notes', type: 'checked' })).toEqual([]);
  });

  it('answers the same order as GET /api/tools?search=', async () => {
    for (const search of ['transcribe meetings', 'image', 'sql database', 'notes']) {
      const list = (await request(app).get('/api/tools').query({ search })).body.data.map(
        (t: { slug: string }) => t.slug,
      );
      expect(await queried({ search, size: '96' }), search).toEqual(list);
    }
  });
});

describe('hostile search text', () => {
  const HOSTILE = [
    '"',
    '"unclosed',
    "it's",
    "' OR 1=1 --",
    'transcribe*',
    '*',
    'NEAR(transcribe meetings)',
    'transcribe NEAR meetings',
    'transcribe AND meetings',
    'transcribe OR',
    'NOT transcribe',
    '-transcribe',
    'name:scribe',
    '{name}: scribe',
    '^scribe',
    'scribe & | ! ( ) :* <->',
    '\u0000\u0007\u001b[31mscribe\u007f',
    'x'.repeat(16 * 1024),
    'transcribe '.repeat(1500),
    '🙂 émoji ü ß',
  ];

  it('answers as plain words with a 200 on every search route, never an engine error (a control character in the address is a 400 with its reason, 16 kB of it a 431)', async () => {
    for (const search of HOSTILE) {
      for (const path of ['/api/tools', '/api/tools/query']) {
        const res = await request(app).get(path).query({ search });
        const label = `${path} ${JSON.stringify(search.slice(0, 40))}`;
        if (search.length > 8 * 1024) expect(res.status, label).toBe(431);
        else if (/[\u0000-\u001f\u007f]/.test(search)) {
          expect(res.status, label).toBe(400);
          expect(res.body.error, label).toEqual(expect.any(String));
        } else expect(res.status, label).toBe(200);
        expect(JSON.stringify(res.body)).not.toMatch(/fts5|syntax error|tsquery|sqlite|postgres/i);
      }
    }
  });

  it('reads operators and quotes as words: the same tools as the plain words', async () => {
    const plain = await found('transcribe meetings');
    expect(await found('"transcribe" AND meetings*')).toEqual(plain);
    expect(await found('NEAR(transcribe, meetings)')).toEqual(plain);
    expect((await found('\u0000scribe\u0007'))[0]).toBe('scribe');
  });

  it('reads at most 8 words of any length of text, so 16 kB costs no more than a line', async () => {
    for (const search of HOSTILE) await expect(findTools(db, search)).resolves.toEqual(expect.any(Array));
    expect(searchWords('transcribe '.repeat(1500) + 'meetings')).toHaveLength(2);
    expect(searchWords('a1 b2 c3 d4 e5 f6 g7 h8 i9 j10')).toHaveLength(8);
  });
});
