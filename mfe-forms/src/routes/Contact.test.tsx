import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { configStore } from '@aitools/platform';
import Contact from './Contact';
import { deferred, jsonResponse, renderRoute, stubFetch, TEST_KEY } from '../../test/renderRoute';

afterEach(() => vi.unstubAllGlobals());

const EMAIL = configStore.current.contactEmail;
const input = (name: string) =>
  screen.getByRole(name === 'Subject' ? 'combobox' : 'textbox', { name }) as HTMLInputElement;

async function fill(user: ReturnType<typeof userEvent.setup>) {
  await user.type(input('Name'), 'Ada Lovelace');
  await user.type(input('Email'), 'ada@example.com');
  await user.selectOptions(input('Subject'), 'Bug Report');
  await user.type(input('Message'), 'The search box ignores accents.');
}

describe('/contact', () => {
  it('lists the four topics, each with the contact address', () => {
    renderRoute('/contact', Contact);
    for (const topic of ['General Inquiries', 'Tool Submissions', 'Technical Support', 'Privacy & Legal']) {
      const item = screen.getByRole('heading', { name: topic }).closest('li')!;
      expect(within(item).getByRole('link', { name: EMAIL }).getAttribute('href')).toBe(`mailto:${EMAIL}`);
    }
  });

  it('has the required fields, the email type, six subjects and a 5-row message', () => {
    renderRoute('/contact', Contact);
    for (const name of ['Name', 'Email', 'Subject', 'Message']) {
      expect(input(name).required).toBe(true);
      expect(screen.getByText(name, { selector: 'label' }).textContent).toBe(`${name} *`);
    }
    expect(input('Email').type).toBe('email');
    const options = within(input('Subject')).getAllByRole('option').slice(1);
    expect(options.map((o) => [(o as HTMLOptionElement).value, o.textContent])).toEqual([
      ['general', 'General Inquiry'],
      ['tool-suggestion', 'Tool Suggestion'],
      ['bug-report', 'Bug Report'],
      ['partnership', 'Partnership'],
      ['privacy', 'Privacy Question'],
      ['other', 'Other'],
    ]);
    expect((input('Message') as unknown as HTMLTextAreaElement).rows).toBe(5);
  });

  it('disables everything with "Sending...", then shows the success banner and clears the form', async () => {
    const answer = deferred<Response>();
    const fetch = stubFetch(() => answer.promise);
    const user = userEvent.setup();
    renderRoute('/contact', Contact);
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(screen.getByRole('button', { name: 'Sending...' }).hasAttribute('disabled')).toBe(true);
    for (const name of ['Name', 'Email', 'Subject', 'Message']) expect(input(name).disabled).toBe(true);
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(fetch.mock.calls[0][0]).toBe('/api/contact/submit');
    expect(JSON.parse(String(fetch.mock.calls[0][1]?.body))).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      subject: 'bug-report',
      message: 'The search box ignores accents.',
      idempotencyKey: TEST_KEY,
    });

    answer.resolve(jsonResponse(200, { success: true }));
    const banner = await screen.findByRole('status');
    expect(banner.textContent).toBe(
      "Message Sent Successfully!Thank you for contacting us. We'll get back to you as soon as possible.",
    );
    for (const name of ['Name', 'Email', 'Subject', 'Message']) expect(input(name).value).toBe('');
    expect(screen.getByRole('button', { name: 'Send Message' }).hasAttribute('disabled')).toBe(false);
  });

  it.each([
    ['a non-OK answer', async () => jsonResponse(500, { success: false, error: 'Internal server error' })],
    [
      'a network failure',
      async (): Promise<Response> => {
        throw new TypeError('Failed to fetch');
      },
    ],
  ])('shows the error banner with the address and keeps the values on %s', async (_label, impl) => {
    stubFetch(impl);
    const user = userEvent.setup();
    renderRoute('/contact', Contact);
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toBe(
      `Error Sending MessageThere was an error sending your message. Please try again or contact us directly at ${EMAIL}`,
    );
    expect(input('Name').value).toBe('Ada Lovelace');
    expect(input('Subject').value).toBe('bug-report');
    expect(input('Message').value).toBe('The search box ignores accents.');
  });

  it('shows the rate-limit text in the error banner when the API answers 429, and moves focus to the banner', async () => {
    stubFetch(async () =>
      jsonResponse(429, { success: false, error: 'Too many requests. Please wait a minute and try again.' }),
    );
    const user = userEvent.setup();
    renderRoute('/contact', Contact);
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toBe('Error Sending MessageToo many requests. Please wait a minute and try again.');
    await vi.waitFor(() => expect(document.activeElement).toBe(banner));
  });

  it('replaces the success banner with a newer attempt: its field errors alone', async () => {
    const user = userEvent.setup();
    renderRoute('/contact', Contact, ['/contact?sent=1']);
    expect(screen.getByRole('status').textContent).toContain('Message Sent Successfully!');
    await user.type(input('Name'), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Email is required')).toBeTruthy();
    expect(screen.queryByText('Message Sent Successfully!')).toBeNull();
  });

  it('checks the form with the shared schema before sending', async () => {
    const fetch = stubFetch(async () => jsonResponse(200, { success: true }));
    const user = userEvent.setup();
    renderRoute('/contact', Contact);
    await user.type(input('Name'), 'Ada');
    await user.type(input('Email'), 'ada@nowhere');
    await user.selectOptions(input('Subject'), 'Other');
    await user.type(input('Message'), 'Hi');
    // Bypass the browser's own checks (as a script or an old browser could) to reach the schema.
    input('Name').closest('form')!.noValidate = true;
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(screen.getByText('Please enter a valid email address')).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();
    // The first field to mend takes focus, so a screen reader reads its error.
    expect(document.activeElement).toBe(input('Email'));
  });

  it('as the server answers a refused post: the page loads with focus on the first invalid field', () => {
    const values = { name: 'Ada', email: 'nope', subject: '', message: '' };
    renderRoute('/contact', Contact, ['/contact'], {
      fieldErrors: { message: 'Please enter a message', email: 'Please enter a valid email address' },
      values,
      idempotencyKey: TEST_KEY,
    });
    expect(input('Email').hasAttribute('autofocus') || document.activeElement === input('Email')).toBe(true);
    expect(document.activeElement).toBe(input('Email'));
    expect(input('Message').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).not.toBe(input('Message'));
  });

  it('as the server renders it after a post: the success banner after the redirect; the error banner with the values kept', () => {
    const sent = renderRoute('/contact', Contact, ['/contact?sent=1']);
    expect(screen.getByRole('status').textContent).toContain('Message Sent Successfully!');
    sent.unmount();
    const values = { name: 'Ada', email: 'ada@x.io', subject: 'privacy', message: 'Kept' };
    renderRoute('/contact', Contact, ['/contact'], {
      fieldErrors: {},
      values,
      idempotencyKey: TEST_KEY,
      formError: 'send',
    });
    expect(screen.getByRole('alert').textContent).toContain('Error Sending Message');
    expect([input('Name').value, input('Email').value, input('Subject').value, input('Message').value]).toEqual([
      'Ada',
      'ada@x.io',
      'privacy',
      'Kept',
    ]);
    const form = input('Name').closest('form')!;
    expect([form.method, form.getAttribute('action')]).toEqual(['post', '/contact']);
    expect((form.elements.namedItem('idempotencyKey') as HTMLInputElement).value).toBe(TEST_KEY);
  });
});
