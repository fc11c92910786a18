import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, RouterProvider, useLoaderData } from 'react-router-dom';
import Submit from './Submit';
import { submitAction } from '../features/submit/submitForm';
import { deferred, jsonResponse, renderRoute, stubFetch, TEST_KEY } from '../../test/renderRoute';

afterEach(() => vi.unstubAllGlobals());

const field = (name: RegExp) => screen.getByLabelText(name);

async function fillValid(user: ReturnType<typeof userEvent.setup>) {
  await user.type(field(/^Tool Name/), '  Acme AI ');
  await user.type(field(/^Your Email/), 'owner@acme.io');
  await user.type(field(/^Website URL/), 'https://acme.io');
}

/**
 * The API's idempotency (docs/reliability.md, Idempotency): a key stores its post once and answers a retry of it
 * again; the same key with other data is refused with 422. The first answer is lost on the way back.
 */
function apiLosingFirstAnswer() {
  const stored = new Map<string, string>();
  let lose = true;
  const fetch = stubFetch(async (_url, init) => {
    const key = (init?.headers as Record<string, string>)['Idempotency-Key'];
    const { idempotencyKey: _key, ...post } = JSON.parse(String(init?.body)) as Record<string, unknown>;
    const sent = JSON.stringify(post);
    if (stored.has(key) && stored.get(key) !== sent)
      return jsonResponse(422, { success: false, error: 'Please correct the highlighted fields.' });
    stored.set(key, sent);
    if (lose) {
      lose = false;
      throw new TypeError('Failed to fetch');
    }
    return jsonResponse(201, { success: true, id: stored.size });
  });
  return { fetch, stored };
}

/** The page as the server sends it after a post without JavaScript: rendered once, no effect run. */
function serverHtml(actionData: unknown) {
  const router = createMemoryRouter(
    [{ id: 'page', path: '/submit', Component: () => <Submit.Component data={useLoaderData()} /> }],
    {
      initialEntries: ['/submit'],
      hydrationData: { loaderData: { page: { idempotencyKey: TEST_KEY } }, actionData: { page: actionData } },
    },
  );
  const page = document.createElement('div');
  page.innerHTML = renderToString(<RouterProvider router={router} />);
  return page;
}

describe('/submit', () => {
  it('shows the title, subtitle, both tool types (AI Tool by default) and a link home', () => {
    renderRoute('/submit', Submit);
    expect(screen.getByRole('heading', { level: 1, name: 'Submit Your Tool' })).toBeTruthy();
    expect(screen.getByText('Share your AI tool or MCP server with our community')).toBeTruthy();
    expect(
      (screen.getByRole('radio', { name: /^AI Tool\s*General AI-powered tools and applications$/ }) as HTMLInputElement)
        .checked,
    ).toBe(true);
    expect(
      (
        screen.getByRole('radio', {
          name: /^MCP Server\s*Model Context Protocol servers and integrations$/,
        }) as HTMLInputElement
      ).checked,
    ).toBe(false);
    expect(screen.getByRole('link', { name: '← Back to Directory' }).getAttribute('href')).toBe('/');
    expect(screen.getByText('0/500')).toBeTruthy();
  });

  it('shows the required-field messages without sending anything', async () => {
    const fetch = stubFetch(async () => jsonResponse(201, { success: true, id: 1 }));
    const user = userEvent.setup();
    renderRoute('/submit', Submit);
    await user.click(screen.getByRole('button', { name: 'Submit Tool' }));
    // The first click may come before the checks loaded (useFormPost): they are waited for, nothing is sent.
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(screen.getByText('Email is required')).toBeTruthy();
    expect(screen.getByText('Website URL is required')).toBeTruthy();
    expect(field(/^Tool Name/).getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(field(/^Tool Name/));
    expect(fetch).not.toHaveBeenCalled();
  });

  it('shows the format messages for email and URL, and the 500-character message rule', async () => {
    stubFetch(async () => jsonResponse(201, { success: true, id: 1 }));
    const user = userEvent.setup();
    renderRoute('/submit', Submit);
    await user.type(field(/^Tool Name/), 'Acme');
    await user.type(field(/^Your Email/), 'owner-at-acme');
    await user.type(field(/^Website URL/), 'acme.io');
    // The browser caps typing at 500 (maxLength); a longer value can only arrive another way.
    fireEvent.change(field(/^Message to the reviewers/), { target: { value: 'x'.repeat(501) } });
    await user.click(screen.getByRole('button', { name: 'Submit Tool' }));
    expect(screen.getByText('Please enter a valid email address')).toBeTruthy();
    expect(screen.getByText('Please enter a valid URL (starting with http:// or https://)')).toBeTruthy();
    expect(screen.getByText('Message must be 500 characters or less')).toBeTruthy();
    expect(screen.queryByText('Name is required')).toBeNull();
    expect(document.activeElement).toBe(field(/^Your Email/));
  });

  it("clears only the edited field's error", async () => {
    const user = userEvent.setup();
    renderRoute('/submit', Submit);
    await user.click(screen.getByRole('button', { name: 'Submit Tool' }));
    await user.type(field(/^Your Email/), 'a');
    expect(screen.queryByText('Email is required')).toBeNull();
    expect(field(/^Your Email/).getAttribute('aria-invalid')).toBeNull();
    expect(screen.getByText('Name is required')).toBeTruthy();
    expect(screen.getByText('Website URL is required')).toBeTruthy();
  });

  it('counts message characters and caps input at 500', async () => {
    const user = userEvent.setup();
    renderRoute('/submit', Submit);
    const message = field(/^Message to the reviewers/) as HTMLTextAreaElement;
    expect(message.maxLength).toBe(500);
    await user.type(message, 'Hello');
    expect(screen.getByText('5/500')).toBeTruthy();
    await user.clear(message);
    await user.click(message);
    await user.paste('y'.repeat(520));
    expect(message.value).toHaveLength(500);
    expect(screen.getByText('500/500')).toBeTruthy();
  });

  it('disables the fields while submitting, sends the cleaned submission, then thanks with a link home', async () => {
    const answer = deferred<Response>();
    const fetch = stubFetch(() => answer.promise);
    const user = userEvent.setup();
    renderRoute('/submit', Submit);
    await fillValid(user);
    await user.click(screen.getByRole('radio', { name: /MCP Server/ }));
    await user.type(field(/^Description/), 'Reads files');
    await user.click(screen.getByRole('button', { name: 'Submit Tool' }));

    expect(screen.getByRole('button', { name: 'Submitting...' }).hasAttribute('disabled')).toBe(true);
    for (const name of [/^Tool Name/, /^Your Email/, /^Website URL/, /^Description/, /^Message to the reviewers/])
      expect(field(name).hasAttribute('disabled')).toBe(true);
    expect((screen.getByRole('radio', { name: /MCP Server/ }) as HTMLInputElement).disabled).toBe(true);

    await waitFor(() => expect(fetch).toHaveBeenCalled());
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('/api/submissions');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({
      name: 'Acme AI',
      email: 'owner@acme.io',
      website_url: 'https://acme.io',
      tool_type: 'mcp-server',
      description: 'Reads files',
      message: null,
      idempotencyKey: TEST_KEY,
    });
    expect((init?.headers as Record<string, string>)['Idempotency-Key']).toBe(TEST_KEY);

    answer.resolve(jsonResponse(201, { success: true, id: 7 }));
    const thanks = await screen.findByRole('heading', { level: 1, name: 'Thank You' });
    await waitFor(() => expect(document.activeElement).toBe(thanks));
    expect(screen.getByRole('link', { name: 'Back to Directory' }).getAttribute('href')).toBe('/');
  });

  it('says "Failed to submit your tool" when the server answers an error, and shows its field errors, keeping the values', async () => {
    stubFetch(async () =>
      jsonResponse(400, {
        success: false,
        error: 'Please correct the highlighted fields.',
        fieldErrors: { website_url: 'Website URL is required' },
      }),
    );
    const user = userEvent.setup();
    renderRoute('/submit', Submit);
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Submit Tool' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to submit your tool. Please try again.');
    expect(screen.getByText('Website URL is required')).toBeTruthy();
    expect((field(/^Your Email/) as HTMLInputElement).value).toBe('owner@acme.io');
    expect(screen.getByRole('button', { name: 'Submit Tool' }).hasAttribute('disabled')).toBe(false);
  });

  it('says "An unexpected error occurred" when the request itself fails', async () => {
    stubFetch(async () => {
      throw new TypeError('Failed to fetch');
    });
    const user = userEvent.setup();
    renderRoute('/submit', Submit);
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Submit Tool' }));
    expect((await screen.findByRole('alert')).textContent).toBe('An unexpected error occurred. Please try again.');
    expect(screen.queryByRole('heading', { name: 'Thank You' })).toBeNull();
  });

  it('shows the rate-limit text when the API answers 429', async () => {
    stubFetch(async () =>
      jsonResponse(429, { success: false, error: 'Too many requests. Please wait a minute and try again.' }),
    );
    const user = userEvent.setup();
    renderRoute('/submit', Submit);
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Submit Tool' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many requests. Please wait a minute and try again.',
    );
  });

  it('keeps focus in the form after a failed send: on the failure message', async () => {
    stubFetch(async () => jsonResponse(500, { success: false, error: 'Internal server error' }));
    const user = userEvent.setup();
    renderRoute('/submit', Submit);
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Submit Tool' }));
    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(document.activeElement).toBe(alert));
  });

  it('after a lost answer, a retry with the same values keeps its key (stored once)', async () => {
    const { fetch, stored } = apiLosingFirstAnswer();
    const user = userEvent.setup();
    renderRoute('/submit', Submit);
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Submit Tool' }));
    expect((await screen.findByRole('alert')).textContent).toBe('An unexpected error occurred. Please try again.');
    await user.click(screen.getByRole('button', { name: 'Submit Tool' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Thank You' })).toBeTruthy();
    expect(stored.size).toBe(1);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('after a lost answer, a retry with edited values is another post: sent with a new key and stored', async () => {
    const { stored } = apiLosingFirstAnswer();
    const user = userEvent.setup();
    renderRoute('/submit', Submit);
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Submit Tool' }));
    expect((await screen.findByRole('alert')).textContent).toBe('An unexpected error occurred. Please try again.');
    await user.type(field(/^Tool Name/), ' Pro');
    await user.click(screen.getByRole('button', { name: 'Submit Tool' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Thank You' })).toBeTruthy();
    expect([...stored.values()].map((post) => JSON.parse(post).name)).toEqual(['Acme AI', 'Acme AI  Pro']);
  });

  it('without JavaScript, counts a posted message as the checks do (a CR LF line break is one character)', async () => {
    const message = Array(250).fill('a').join('\r\n');
    const request = new Request('http://site.test/submit', {
      method: 'POST',
      body: new URLSearchParams({ name: 'Acme', email: 'o@acme.io', website_url: 'acme.io', message }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    const answer = (await submitAction({ request, context: {}, params: {} } as Parameters<typeof submitAction>[0])) as {
      data: unknown;
    };
    const page = serverHtml(answer.data);
    expect(page.querySelector('#submit-message-count')!.textContent).toBe('499/500');
  });

  it('as the server renders it after a post: field errors with the values kept, or the Thank You page', () => {
    const values = {
      name: 'Acme',
      email: 'o@acme.io',
      website_url: 'acme.io',
      tool_type: 'mcp-server',
      description: 'D',
      message: 'Hello',
    };
    const errored = renderRoute('/submit', Submit, ['/submit'], {
      fieldErrors: { website_url: 'Website URL is required' },
      values,
      idempotencyKey: TEST_KEY,
    });
    expect(screen.getByText('Website URL is required')).toBeTruthy();
    expect((field(/^Tool Name/) as HTMLInputElement).value).toBe('Acme');
    expect((screen.getByRole('radio', { name: /MCP Server/ }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText('5/500')).toBeTruthy();
    errored.unmount();
    renderRoute('/submit', Submit, ['/submit?submitted=1']);
    expect(screen.getByRole('heading', { level: 1, name: 'Thank You' })).toBeTruthy();
  });
});
