import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { EditablePost } from '@aitools/contracts/posts';
import { person, renderConsole, type Call } from '../testing';
import { AUTOSAVE_MS } from './PostEditor';

const editor = person([{ role: 'editor' }]);
const POST: EditablePost = {
  slug: 'hello',
  title: 'Hello',
  excerpt: 'An excerpt',
  category: 'News',
  tags: ['One'],
  author: 'Editorial Team',
  featured: false,
  read_time: '',
  featured_image: '',
  featured_image_alt: '',
  content: 'Some text',
  status: 'draft',
  published_at: null,
  updated_at: '2026-11-26T10:00:00.000Z',
  version: 2,
};
const REVISIONS = {
  success: true,
  versions: [
    { version: 2, author: 'person:1 Ada', created_at: '2026-11-26T10:00:00.000Z' },
    { version: 1, author: 'before the first edit', created_at: '2026-11-26T09:00:00.000Z' },
  ],
};
const editorApi = (overrides = {}) => ({
  'GET /api/posts/hello': { success: true, post: POST },
  'GET /api/posts/hello/versions': REVISIONS,
  'POST /api/posts/preview': (c: Call) => ({
    success: true,
    html: `<article class="blog-post__article"><p>${(c.body as { fields: { content: string } }).fields.content}</p></article>`,
  }),
  ...overrides,
});

describe('the posts list', () => {
  it('shows each post with its status, author and dates, and searches by title and status', async () => {
    const { calls } = renderConsole('/posts', editor, {
      'GET /api/posts': {
        success: true,
        posts: [
          {
            slug: 'hello',
            title: 'Hello',
            status: 'scheduled',
            author: 'Editorial Team',
            published_at: '2026-12-01T09:00:00.000Z',
            updated_at: '2026-11-26T10:00:00.000Z',
            version: 3,
          },
        ],
      },
      'GET /api/posts?search=hel&status=draft': { success: true, posts: [] },
    });
    const row = await screen.findByRole('row', {
      name: 'Hello Scheduled Editorial Team 2026-12-01 09:00 UTC 2026-11-26 10:00 UTC',
    });
    expect(within(row).getByRole('link', { name: 'Hello' }).getAttribute('href')).toBe('/posts/hello');
    await userEvent.type(screen.getByLabelText('Title or address'), 'hel');
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'draft');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No post matches.')).toBeTruthy();
    expect(calls.map((c) => c.path)).toContain('/api/posts?search=hel&status=draft');
  });

  it('a moderator is told the section is not theirs and nothing is called', async () => {
    const { calls } = renderConsole('/posts/hello', person([{ role: 'moderator' }]));
    expect(await screen.findByRole('heading', { name: 'Not available' })).toBeTruthy();
    expect(calls.map((c) => c.path)).toEqual(['/api/auth/me']);
  });
});

describe('the post editor', () => {
  it('shows the fields, draws the live preview from the server, and saves naming the version it started from', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole(
      '/posts/hello',
      editor,
      editorApi({
        'POST /api/posts/hello': { success: true, post: { ...POST, content: 'Changed', version: 3 } },
      }),
    );
    const markdown = await screen.findByLabelText('Markdown');
    expect((screen.getByLabelText('Tags') as HTMLInputElement).value).toBe('One');
    expect((screen.getByLabelText('Address') as HTMLInputElement).readOnly).toBe(true);
    const preview = await screen.findByRole('region', { name: 'Live preview' });
    await within(preview).findByText('Some text');
    await user.clear(markdown);
    await user.type(markdown, 'Changed');
    await within(preview).findByText('Changed');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved as version 3.')).toBeTruthy();
    const save = calls.find((c) => c.method === 'POST' && c.path === '/api/posts/hello');
    expect(save?.body).toMatchObject({ version: 2, action: 'save', fields: { content: 'Changed', tags: ['One'] } });
    // The versions are listed again with the new one.
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/posts/hello/versions')).toHaveLength(2));
  });

  it('a save refused with 409 shows the newer version and offers to load it', async () => {
    const user = userEvent.setup();
    renderConsole(
      '/posts/hello',
      editor,
      editorApi({
        'POST /api/posts/hello': {
          status: 409,
          body: {
            success: false,
            error: 'Someone saved a newer version',
            latest: {
              version: 3,
              author: 'person:2 Bo',
              created_at: '2026-11-26T11:00:00.000Z',
              body: { title: 'Their title', content: 'Their text' },
            },
          },
        },
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/version 3, by person:2 Bo/);
    expect(within(alert).getByText('Their text')).toBeTruthy();
    expect(within(alert).getByRole('button', { name: 'Load the newer version' })).toBeTruthy();
  });

  it('a draft saves itself after a pause in typing', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole(
      '/posts/hello',
      editor,
      editorApi({ 'POST /api/posts/hello': { success: true, post: { ...POST, title: 'Hello!', version: 3 } } }),
    );
    await user.type(await screen.findByLabelText('Title'), '!');
    expect(
      await screen.findByText('Draft saved automatically (version 3).', {}, { timeout: AUTOSAVE_MS * 3 }),
    ).toBeTruthy();
    expect(calls.filter((c) => c.path === '/api/posts/hello' && c.method === 'POST')).toHaveLength(1);
  });

  it('publishes, schedules in UTC and makes a preview link', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole(
      '/posts/hello',
      editor,
      editorApi({
        'POST /api/posts/hello': (c: Call) => {
          const body = c.body as { action: string; at?: string };
          return {
            success: true,
            post:
              body.action === 'schedule'
                ? { ...POST, status: 'scheduled', published_at: body.at, version: 3 }
                : { ...POST, status: 'published', published_at: '2026-11-26T12:00:00.000Z', version: 3 },
          };
        },
        'POST /api/posts/hello/preview-link': { success: true, url: 'https://site.example/__preview/post/hello?x' },
      }),
    );
    await user.type(await screen.findByLabelText('Publish at (UTC)'), '2026-12-01T09:30');
    await user.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText('Scheduled for 2026-12-01 09:30 UTC (version 3).')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST' && c.path === '/api/posts/hello')?.body).toMatchObject({
      action: 'schedule',
      at: '2026-12-01T09:30:00.000Z',
    });
    await user.click(screen.getByRole('button', { name: 'Make a preview link' }));
    expect(((await screen.findByLabelText('Preview link (24 hours)')) as HTMLInputElement).value).toBe(
      'https://site.example/__preview/post/hello?x',
    );
  });

  it('compares an older version with the current one and restores it', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole(
      '/posts/hello',
      editor,
      editorApi({
        'GET /api/posts/hello/versions/1/diff?to=2': {
          success: true,
          lines: [
            { op: '-', text: 'content: "Old"' },
            { op: '+', text: 'content: "Some text"' },
          ],
        },
        'POST /api/posts/hello/versions/1/restore': { success: true, post: { ...POST, version: 3 } },
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Compare version 1' }));
    const diff = await screen.findByLabelText('Changes from version 1 to version 2');
    expect(diff.textContent).toBe('- content: "Old"\n+ content: "Some text"\n');
    await user.click(screen.getByRole('button', { name: 'Restore version 1' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/api/posts/hello/versions/1/restore')?.body).toEqual({ base: 2 }),
    );
  });

  it('a new post is created as a draft at its address, with its Tags field kept as typed, key by key', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole('/posts/new', editor, {
      ...editorApi(),
      'POST /api/posts': { status: 201, body: { success: true, post: POST } },
    });
    await user.type(await screen.findByLabelText('Title'), 'Hello');
    await user.type(screen.getByLabelText('Address'), 'hello');
    const tags = screen.getByLabelText('Tags') as HTMLInputElement;
    await user.type(tags, 'AI Tools, MCP');
    expect(tags.value).toBe('AI Tools, MCP');
    await user.click(screen.getByRole('button', { name: 'Create draft' }));
    expect(await screen.findByRole('heading', { name: 'Edit: Hello' })).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST' && c.path === '/api/posts')?.body).toMatchObject({
      slug: 'hello',
      fields: { title: 'Hello', tags: ['AI Tools', 'MCP'] },
    });
  });
});

describe('the post editor when something goes wrong', () => {
  it('keeps what was typed when the session ends, and offers it back to the same person only after signing in', async () => {
    const user = userEvent.setup();
    const ended = { status: 401, body: { success: false, error: 'Your session ended.' } };
    renderConsole('/posts/hello', editor, editorApi({ 'POST /api/posts/hello': ended }));
    const markdown = await screen.findByLabelText('Markdown');
    await user.clear(markdown);
    await user.paste('Typed before the session ended');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    // The session ended elsewhere: the console shows the sign-in, the text is no longer on screen.
    expect(await screen.findByRole('heading', { name: 'Sign in to the console' })).toBeTruthy();
    cleanup();

    // Another person signs in on this device: nothing of the first person's is offered.
    renderConsole('/posts/hello', person([{ role: 'editor' }], 'Bo', 2), editorApi());
    expect(((await screen.findByLabelText('Markdown')) as HTMLTextAreaElement).value).toBe('Some text');
    expect(screen.queryByRole('button', { name: 'Restore my unsaved changes' })).toBeNull();
    cleanup();

    // The same person signs in again: the text is offered back, and a save of it names the version it started from.
    const { calls } = renderConsole(
      '/posts/hello',
      editor,
      editorApi({ 'POST /api/posts/hello': { success: true, post: { ...POST, version: 3 } } }),
    );
    const offer = await screen.findByRole('group', { name: /were not saved/ });
    expect(offer.textContent).toMatch(/starting from version 2/);
    await user.click(within(offer).getByRole('button', { name: 'Restore my unsaved changes' }));
    expect((screen.getByLabelText('Markdown') as HTMLTextAreaElement).value).toBe('Typed before the session ended');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved as version 3.')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST' && c.path === '/api/posts/hello')?.body).toMatchObject({
      version: 2,
      fields: { content: 'Typed before the session ended' },
    });
    // Saved: nothing is kept or offered any more.
    cleanup();
    renderConsole('/posts/hello', editor, editorApi());
    await screen.findByLabelText('Markdown');
    expect(screen.queryByRole('button', { name: 'Restore my unsaved changes' })).toBeNull();
  });

  it('a refused "Publish now" marks each refused field beside itself, once, focuses the first, and clears a fixed one', async () => {
    const user = userEvent.setup();
    renderConsole(
      '/posts/hello',
      editor,
      editorApi({
        'POST /api/posts/hello': {
          status: 400,
          body: {
            success: false,
            error: 'Not publishable yet: Excerpt is required; At least one tag is required',
            fieldErrors: { excerpt: 'Excerpt is required', tags: 'At least one tag is required' },
          },
        },
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Publish now' }));
    const excerpt = screen.getByLabelText('Excerpt');
    await waitFor(() => expect(document.activeElement).toBe(excerpt));
    expect(excerpt.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(excerpt.getAttribute('aria-describedby')!)?.textContent).toBe('Excerpt is required');
    const tags = screen.getByLabelText('Tags');
    expect(tags.getAttribute('aria-invalid')).toBe('true');
    expect(tags.getAttribute('aria-describedby')).toBe('post-tags-error post-tags-hint');
    // Each reason once, beside its field; the note beside the buttons names the fields by their labels.
    expect(screen.getAllByText('Excerpt is required')).toHaveLength(1);
    expect(screen.getAllByText('At least one tag is required')).toHaveLength(1);
    expect(screen.getByRole('alert').textContent).toBe('Not published: check Excerpt and Tags.');
    await user.type(excerpt, 'Now there is one');
    expect(excerpt.getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByText('Excerpt is required')).toBeNull();
    expect(tags.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toBe('Not published: check Tags.');
  });

  it("the live preview's headings sit under its own: the page keeps one h1", async () => {
    renderConsole(
      '/posts/hello',
      editor,
      editorApi({
        'POST /api/posts/preview': {
          success: true,
          html: '<article class="blog-post__article"><h1 class="t">Hello</h1><h2>Part</h2><p>Text</p></article>',
        },
      }),
    );
    const preview = await screen.findByRole('region', { name: 'Live preview' });
    expect(await within(preview).findByRole('heading', { level: 3, name: 'Hello' })).toBeTruthy();
    expect(within(preview).getByRole('heading', { level: 4, name: 'Part' })).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual(['Edit: Hello']);
  });
});
