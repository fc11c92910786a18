import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { person, renderConsole, type Call } from '../testing';

const editor = person([{ role: 'editor' }]);
const posts = (calls: Call[]) => calls.filter((c) => c.method === 'POST');

const cursor = {
  name: 'Cursor',
  slug: 'cursor',
  description: 'An AI code editor.',
  website: 'https://cursor.com',
  category: 'Development',
  pricing: 'Freemium',
  tags: ['coding', 'editor'],
};
const loaded = { success: true, version: 3, hidden: false, page: 'https://site.example/tool/cursor', edit: cursor };
const toolRoutes = {
  'GET /api/tools/cursor': loaded,
  'GET /api/tools/cursor/versions': {
    success: true,
    versions: [
      { version: 3, author: 'person:1 Ada', created_at: '2026-11-26T10:00:00Z' },
      { version: 2, author: 'person:1 Ada', created_at: '2026-11-25T10:00:00Z' },
    ],
  },
};

describe('the tools list', () => {
  it('searches by name or slug and links each tool to its page', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole('/tools', editor, {
      'GET /api/tools?search=': { success: true, tools: [] },
      'GET /api/tools?search=cur': {
        success: true,
        tools: [{ id: 1, slug: 'cursor', name: 'Cursor', category: 'Development', pricing: 'Paid', hidden: true }],
      },
    });
    expect(await screen.findByText('No tool matches.')).toBeTruthy();
    await user.type(screen.getByLabelText('Search by name or slug'), 'cur');
    const link = await screen.findByRole('link', { name: 'Cursor' });
    expect(link.getAttribute('href')).toBe('/tools/cursor');
    expect(screen.getByText('Hidden')).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/tools?search=cur')).toBe(true);
  });

  it('is not offered to a moderator', async () => {
    renderConsole('/tools', person([{ role: 'moderator' }]));
    expect(await screen.findByText('Your roles do not include this section.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Tools' })).toBeNull();
  });
});

describe('editing a tool', () => {
  it('saves the changed fields with the version it started from', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole('/tools/cursor', editor, {
      ...toolRoutes,
      'POST /api/tools/cursor': { success: true, version: 4, tool: { ...cursor, pricing: 'Paid' } },
    });
    const pricing = await screen.findByLabelText('Pricing');
    await user.clear(pricing);
    await user.type(pricing, 'Paid');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved as version 4.')).toBeTruthy();
    expect(posts(calls)).toEqual([
      {
        method: 'POST',
        path: '/api/tools/cursor',
        body: { base: 3, edit: { ...cursor, pricing: 'Paid', mcpServer: null } },
      },
    ]);
  });

  it('refuses a field under the contracts rules before sending, with the reason beside the field', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole('/tools/cursor', editor, toolRoutes);
    const website = await screen.findByLabelText('Website URL');
    await user.clear(website);
    await user.type(website, 'javascript:alert(1)');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/Website URL must be a web address/)).toBeTruthy();
    expect(website.getAttribute('aria-invalid')).toBe('true');
    expect(posts(calls)).toHaveLength(0);
  });

  it("links /tool/<slug> to the tool's page on the public site, not the console's own origin", async () => {
    renderConsole('/tools/cursor', editor, toolRoutes);
    expect((await screen.findByRole('link', { name: '/tool/cursor' })).getAttribute('href')).toBe(
      'https://site.example/tool/cursor',
    );
  });

  it('a refused save marks each field beside itself, once, puts focus on the first and the note beside Save', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole('/tools/cursor', editor, toolRoutes);
    const name = await screen.findByLabelText('Name');
    const website = screen.getByLabelText('Website URL');
    await user.clear(website);
    await user.paste('javascript:alert(1)');
    await user.clear(name);
    const save = screen.getByRole('button', { name: 'Save' });
    await user.click(save);
    // Focus leaves Save for the first refused field in the order shown.
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(name.getAttribute('aria-describedby')!)?.textContent).toBe('Name is required');
    expect(website.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getAllByText(/Website URL must be a web address/)).toHaveLength(1);
    const note = screen.getByRole('alert');
    expect(note.textContent).toBe('Not saved: check Name and Website URL.');
    // The note is in the form, right after the button that was pressed (not at the top of a long page).
    expect(save.nextElementSibling).toBe(note);
    await user.type(name, 'C');
    expect(name.getAttribute('aria-invalid')).toBeNull();
    expect(screen.getByRole('alert').textContent).toBe('Not saved: check Website URL.');
    expect(posts(calls)).toHaveLength(0);
  });

  it('keeps unsaved changes on the device when the session ends, for the same person only', async () => {
    const user = userEvent.setup();
    renderConsole('/tools/cursor', editor, {
      ...toolRoutes,
      'POST /api/tools/cursor': { status: 401, body: { success: false, error: 'Your session ended.' } },
    });
    const pricing = await screen.findByLabelText('Pricing');
    await user.clear(pricing);
    await user.type(pricing, 'Paid');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to the console' })).toBeTruthy();
    cleanup();
    renderConsole('/tools/cursor', person([{ role: 'editor' }], 'Bo', 2), toolRoutes);
    expect(((await screen.findByLabelText('Pricing')) as HTMLInputElement).value).toBe('Freemium');
    expect(screen.queryByRole('button', { name: 'Restore my unsaved changes' })).toBeNull();
    cleanup();
    renderConsole('/tools/cursor', editor, toolRoutes);
    await user.click(await screen.findByRole('button', { name: 'Restore my unsaved changes' }));
    expect((screen.getByLabelText('Pricing') as HTMLInputElement).value).toBe('Paid');
  });

  it('shows the server’s reason per field', async () => {
    const user = userEvent.setup();
    renderConsole('/tools/cursor', editor, {
      ...toolRoutes,
      'POST /api/tools/cursor': {
        status: 400,
        body: { success: false, error: 'Not accepted: slug', fieldErrors: { slug: 'Another tool has the slug "x"' } },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Another tool has the slug "x"')).toBeTruthy();
    expect(screen.getByLabelText(/^Slug/).getAttribute('aria-invalid')).toBe('true');
  });

  it('a stale save (409) offers the newer version, and loading it sets the form and the base', async () => {
    const user = userEvent.setup();
    let n = 0;
    const { calls } = renderConsole('/tools/cursor', editor, {
      ...toolRoutes,
      'POST /api/tools/cursor': () =>
        ++n === 1
          ? {
              status: 409,
              body: {
                success: false,
                error: 'Someone saved a newer version (5, by person:2 Bo).',
                latest: { version: 5, author: 'person:2 Bo', body: { ...cursor, pricing: 'Free' } },
              },
            }
          : { success: true, version: 6, tool: cursor },
    });
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/Version 5, saved by person:2 Bo, is newer/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Load version 5' }));
    expect((screen.getByLabelText('Pricing') as HTMLInputElement).value).toBe('Free');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved as version 6.')).toBeTruthy();
    expect(posts(calls).map((c) => (c.body as { base: number }).base)).toEqual([3, 5]);
  });

  it('hides the tool, and shows a version’s changes and restores it', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole('/tools/cursor', editor, {
      ...toolRoutes,
      'POST /api/tools/cursor/hide': { success: true, hidden: true, changed: true },
      'GET /api/tools/cursor/versions/2/diff': {
        success: true,
        lines: [
          { op: '-', text: 'pricing: "Free"' },
          { op: '+', text: 'pricing: "Freemium"' },
        ],
      },
      'POST /api/tools/cursor/versions/2/restore': { success: true, version: 4, tool: cursor },
    });
    await user.click(await screen.findByRole('button', { name: 'Hide this tool…' }));
    // Nothing is hidden on one click: the question comes first, with focus on it, and Cancel changes nothing.
    const question = screen.getByRole('group', { name: /^Hide Cursor\? Its page answers 410 Gone/ });
    expect(document.activeElement).toBe(question);
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(posts(calls)).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Hide this tool…' }));
    await user.click(screen.getByRole('button', { name: 'Hide Cursor' }));
    expect(await screen.findByText('Hidden: its page answers 410 Gone.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Changes since v2' }));
    const diff = await screen.findByLabelText('Changes from version 2');
    expect(diff.textContent).toBe('- pricing: "Free"\n+ pricing: "Freemium"\n');
    await user.click(screen.getByRole('button', { name: 'Restore v2' }));
    expect(await screen.findByText('Version 2 restored as version 4.')).toBeTruthy();
    expect(posts(calls).map((c) => [c.path, c.body])).toEqual([
      ['/api/tools/cursor/hide', {}],
      ['/api/tools/cursor/versions/2/restore', { base: 3 }],
    ]);
  });
});

describe('categories and tags', () => {
  it('lists counts, previews how many tools change, and merges only after the preview', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole('/taxonomy', editor, {
      'GET /api/taxonomy': {
        success: true,
        categories: [
          { name: 'Development', tools: 9 },
          { name: 'Dev Tools', tools: 2 },
        ],
        tags: [{ name: 'coding', tools: 12 }],
      },
      'POST /api/taxonomy/preview': { success: true, tools: 2, merge: true, slugs: ['a', 'b'] },
      'POST /api/taxonomy/rename': { success: true, tools: 2, merge: true, slugs: ['a', 'b'] },
    });
    const categories = await screen.findByRole('region', { name: 'Categories' });
    expect(within(categories).getByRole('cell', { name: '9' })).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('From'), 'Dev Tools');
    await user.type(screen.getByLabelText(/^Into/), 'Development');
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    expect(await screen.findByText('Merge: 2 tools change from "Dev Tools" to "Development".')).toBeTruthy();
    expect(posts(calls).map((c) => c.path)).toEqual(['/api/taxonomy/preview']);
    await user.click(screen.getByRole('button', { name: 'Merge 2 tools' }));
    expect(await screen.findByText('Merged "Dev Tools" into "Development": 2 tools changed.')).toBeTruthy();
    expect(posts(calls)[1]).toEqual({
      method: 'POST',
      path: '/api/taxonomy/rename',
      body: { kind: 'category', from: 'Dev Tools', to: 'Development' },
    });
  });
});

describe("editing a tool's key features, FAQs and plans", () => {
  const withLists = {
    ...cursor,
    keyFeatures: ['Tab completion', { title: 'Agent', description: 'Edits many files' }],
    faqs: [
      { question: 'Is it free?', answer: 'There is a free plan.' },
      { question: 'Which models?', answer: 'Several.' },
    ],
    plans: [{ name: 'Hobby', price: '$0', features: ['2,000 completions', 'Chat'], highlight: false }],
  };
  const routes = { ...toolRoutes, 'GET /api/tools/cursor': { ...loaded, edit: withLists } };
  const group = (name: string) => screen.getByRole('group', { name });

  it('changes, adds, moves and removes entries, and sends the lists in their order', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole('/tools/cursor', editor, {
      ...routes,
      'POST /api/tools/cursor': { success: true, version: 4, tool: cursor },
    });
    const answer = within(await screen.findByRole('group', { name: 'FAQ 2' })).getByLabelText('Answer');
    // Text is pasted, not typed key by key: many fields, on a busy machine, within the runner's time.
    await user.clear(answer);
    await user.paste('Many.');
    await user.click(screen.getByRole('button', { name: 'Move FAQ 2 up' }));
    await user.click(screen.getByRole('button', { name: 'Remove key feature 1' }));
    await user.click(screen.getByRole('button', { name: 'Add plan' }));
    const plan = group('Plan 2');
    await user.click(within(plan).getByLabelText('Plan name'));
    await user.paste('Pro');
    await user.click(within(plan).getByLabelText('Features (one per line)'));
    await user.paste('Unlimited\n\n Agents ');
    await user.click(within(plan).getByLabelText('Highlight this plan'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved as version 4.')).toBeTruthy();
    const sent = (posts(calls)[0]!.body as { edit: Record<string, unknown> }).edit;
    expect(sent.faqs).toEqual([
      { question: 'Which models?', answer: 'Many.' },
      { question: 'Is it free?', answer: 'There is a free plan.' },
    ]);
    expect(sent.keyFeatures).toEqual([{ title: 'Agent', description: 'Edits many files' }]);
    expect(sent.plans).toEqual([
      withLists.plans[0],
      { name: 'Pro', features: ['Unlimited', 'Agents'], highlight: true },
    ]);
  });

  it('is usable from the keyboard: focus follows a moved entry', async () => {
    const user = userEvent.setup();
    renderConsole('/tools/cursor', editor, routes);
    const down = await screen.findByRole('button', { name: 'Move FAQ 1 down' });
    down.focus();
    await user.keyboard('{Enter}');
    expect(within(group('FAQ 2')).getByLabelText<HTMLInputElement>('Question').value).toBe('Is it free?');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move FAQ 2 up' }));
    await user.keyboard('{Enter}');
    expect(within(group('FAQ 1')).getByLabelText<HTMLInputElement>('Question').value).toBe('Is it free?');
  });

  it('refuses an empty answer before sending, with the reason beside it', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole('/tools/cursor', editor, routes);
    const answer = within(await screen.findByRole('group', { name: 'FAQ 2' })).getByLabelText('Answer');
    await user.clear(answer);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Answer is required')).toBeTruthy();
    expect(answer.getAttribute('aria-invalid')).toBe('true');
    expect(posts(calls)).toHaveLength(0);
  });

  it('a version without the lists sends none, so the stored ones are kept', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole('/tools/cursor', editor, {
      ...toolRoutes,
      'POST /api/tools/cursor': { success: true, version: 4, tool: cursor },
    });
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved as version 4.')).toBeTruthy();
    expect(Object.keys((posts(calls)[0]!.body as { edit: object }).edit)).not.toContain('faqs');
  });
});

describe('a refused rename', () => {
  it("marks the new name beside its field in the form's words, focuses it, and clears it when it is changed", async () => {
    const user = userEvent.setup();
    renderConsole('/taxonomy', editor, {
      'GET /api/taxonomy': { success: true, categories: [{ name: 'Development', tools: 9 }], tags: [] },
      'POST /api/taxonomy/preview': {
        status: 400,
        body: { success: false, error: 'Not accepted: to', fieldErrors: { to: 'The new name is the same' } },
      },
    });
    await user.selectOptions(await screen.findByLabelText('From'), 'Development');
    const into = screen.getByLabelText(/^Into/);
    await user.type(into, 'Development');
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    await waitFor(() => expect(document.activeElement).toBe(into));
    expect(into.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(into.getAttribute('aria-describedby')!)?.textContent).toBe(
      'The new name is the same',
    );
    expect(screen.getByRole('alert').textContent).toBe(
      'Not changed: check Into (a new name renames; a name in use merges).',
    );
    await user.type(into, 's');
    expect(into.getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
