import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, RouterProvider, useLoaderData } from 'react-router-dom';
import { configStore } from '@aitools/platform';
import Advertise from './Advertise';
import { EARLY_ACCESS_FAILED, EARLY_ACCESS_STORAGE_KEY } from '../features/advertise/earlyAccess';
import { deferred, jsonResponse, renderRoute, stubFetch, TEST_KEY } from '../../test/renderRoute';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const EMAIL = configStore.current.contactEmail;

describe('/advertise page', () => {
  it('shows the stats, the three options with labels and prices, the roadmap, launch window and contact link', () => {
    renderRoute('/advertise', Advertise);
    for (const text of ['10K+', 'Monthly visitors', '150+', 'Tools listed', '95%', 'Tech-savvy audience'])
      expect(screen.getByText(text)).toBeTruthy();
    for (const [name, tier, price] of [
      ['Sponsored Card', 'Basic', '$299'],
      ['Premium Banner', 'Most Popular', '$599'],
      ['Featured Spotlight', 'Enterprise', '$999'],
    ]) {
      const card = screen.getByRole('heading', { name }).closest('li')!;
      expect(card.textContent).toContain(tier);
      expect(card.textContent).toContain(`From ${price}/mo`);
    }
    expect(screen.getByText(/regular card in the tool grid/)).toBeTruthy();
    expect(screen.getByText(/above the search filters/)).toBeTruthy();
    expect(screen.getByText(/Hero placement/)).toBeTruthy();
    const roadmap = screen.getByRole('heading', { name: "What we're building" }).closest('section')!;
    for (const item of [
      /1 week, 2 weeks or 4 weeks/,
      /based on traffic/,
      /booking pipeline/,
      /real-time analytics dashboard/,
      /Secure card payments/,
      /Content optimisation/,
    ]) {
      expect(roadmap.textContent).toMatch(item);
    }
    expect(roadmap.textContent).toContain('Expected launch: 6-8 weeks');
    expect(screen.getByRole('link', { name: 'Contact us', hidden: true }).getAttribute('href')).toBe(
      `mailto:${EMAIL}?subject=Advertising`,
    );
  });
});

describe('early-access modal', () => {
  it('opens on the page as an accessible dialog with focus on the required email field', () => {
    renderRoute('/advertise', Advertise);
    const dialog = screen.getByRole('dialog', { name: 'Advertising is launching soon' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    const email = screen.getByLabelText(/^Email address/) as HTMLInputElement;
    expect(email.type).toBe('email');
    expect(email.required).toBe(true);
    expect(document.activeElement).toBe(email);
    expect(document.querySelector('.forms-advertise__content')!.hasAttribute('inert')).toBe(true);
  });

  it('keeps Tab inside the dialog, closes on Escape and returns focus to the page', async () => {
    const user = userEvent.setup();
    renderRoute('/advertise', Advertise);
    const email = screen.getByLabelText(/^Email address/);
    const close = screen.getByRole('button', { name: 'Close' });
    close.focus();
    await user.tab();
    expect(document.activeElement).toBe(email);
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(close);

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.querySelector('.forms-advertise__content')!.hasAttribute('inert')).toBe(false);
    const reopen = screen.getByRole('button', { name: 'Join the Waitlist' });
    await vi.waitFor(() => expect(document.activeElement).toBe(reopen));

    await user.click(reopen);
    expect(screen.getByRole('dialog')).toBeTruthy();
    await user.keyboard('{Escape}');
    await vi.waitFor(() => expect(document.activeElement).toBe(reopen));
  });

  it('stores the signup, shows "You\'re all set!", then replaces the entry with / after 2 seconds', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(new Date('2026-11-23T10:00:00.000Z'));
    const answer = deferred<Response>();
    const fetch = stubFetch(() => answer.promise);
    const { router } = renderRoute('/advertise', Advertise, ['/blog', '/advertise']);
    fireEvent.change(screen.getByLabelText(/^Email address/), { target: { value: ' ads@brand.com ' } });
    fireEvent.submit(screen.getByRole('button', { name: 'Get Early Access' }).closest('form')!);
    // Submitted at once after the page rendered: the checks load first (useFormPost), then the form is sent.
    await act(async () => {});
    await act(async () => {});
    expect(fetch.mock.calls[0][0]).toBe('/api/early-access');
    expect(JSON.parse(String(fetch.mock.calls[0][1]?.body))).toEqual({
      email: 'ads@brand.com',
      idempotencyKey: TEST_KEY,
    });
    expect(screen.getByRole('button', { name: 'Joining...' }).hasAttribute('disabled')).toBe(true);

    // Kept only once the server stored it.
    expect(window.localStorage.getItem(EARLY_ACCESS_STORAGE_KEY)).toBeNull();
    await act(async () => answer.resolve(jsonResponse(200, { success: true })));
    expect(screen.getByRole('heading', { name: "You're all set!" })).toBeTruthy();
    expect(JSON.parse(window.localStorage.getItem(EARLY_ACCESS_STORAGE_KEY)!)).toEqual({
      email: 'ads@brand.com',
      timestamp: '2026-11-23T10:00:00.000Z',
      type: 'early_access_advertising',
      source: 'advertise_page_modal',
    });
    await act(async () => vi.advanceTimersByTime(1999));
    expect(router.state.location.pathname).toBe('/advertise');
    await act(async () => vi.advanceTimersByTime(1));
    expect(router.state.location.pathname).toBe('/');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(screen.getByText('Home page')).toBeTruthy();
  });

  it('still signs up when local storage fails (only a warning)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new Error('QuotaExceededError');
    });
    stubFetch(async () => jsonResponse(200, { success: true }));
    const user = userEvent.setup();
    renderRoute('/advertise', Advertise);
    await user.type(screen.getByLabelText(/^Email address/), 'ads@brand.com');
    await user.click(screen.getByRole('button', { name: 'Get Early Access' }));
    expect(await screen.findByRole('heading', { name: "You're all set!" })).toBeTruthy();
    expect(warn).toHaveBeenCalled();
  });

  it.each([
    [500, "We couldn't save your email. Please try again."],
    [429, 'Too many requests. Please wait a minute and try again.'],
  ])(
    'stays on the form when the server answers %i: "%s" on the field, focus on it in the dialog, nothing kept',
    async (status, text) => {
      window.localStorage.removeItem(EARLY_ACCESS_STORAGE_KEY);
      stubFetch(async () => jsonResponse(status, { success: false, error: 'Refused' }));
      const user = userEvent.setup();
      renderRoute('/advertise', Advertise);
      const field = screen.getByLabelText(/^Email address/);
      await user.type(field, 'ads@brand.com');
      await user.click(screen.getByRole('button', { name: 'Get Early Access' }));
      expect((await screen.findByRole('alert')).textContent).toBe(text);
      expect(screen.queryByRole('heading', { name: "You're all set!" })).toBeNull();
      await vi.waitFor(() => expect(document.activeElement).toBe(field));
      expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true);
      expect(window.localStorage.getItem(EARLY_ACCESS_STORAGE_KEY)).toBeNull();
    },
  );

  it('without JavaScript, a page the server answered with a message loads with focus on the email field', () => {
    const router = createMemoryRouter(
      [{ id: 'page', path: '/advertise', Component: () => <Advertise.Component data={useLoaderData()} /> }],
      {
        initialEntries: ['/advertise'],
        hydrationData: {
          loaderData: { page: { idempotencyKey: TEST_KEY } },
          actionData: {
            page: {
              fieldErrors: {},
              values: { email: 'a@b.co' },
              idempotencyKey: TEST_KEY,
              formError: EARLY_ACCESS_FAILED,
            },
          },
        },
      },
    );
    const page = document.createElement('div');
    page.innerHTML = renderToString(<RouterProvider router={router} />);
    expect(page.querySelector('input[name="email"]')!.hasAttribute('autofocus')).toBe(true);
  });

  it('checks the address as the server does: "a@b" gets the schema message and is never sent', async () => {
    const fetch = stubFetch(async () => jsonResponse(201, { success: true }));
    const user = userEvent.setup();
    renderRoute('/advertise', Advertise);
    const field = screen.getByLabelText(/^Email address/);
    await user.type(field, 'a@b');
    await user.click(screen.getByRole('button', { name: 'Get Early Access' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Please enter a valid email address');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(fetch).not.toHaveBeenCalled();
    await user.type(field, '.io');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('"Go Back" navigates to /', async () => {
    const user = userEvent.setup();
    const { router } = renderRoute('/advertise', Advertise);
    await user.click(screen.getByRole('button', { name: 'Go Back' }));
    expect(router.state.location.pathname).toBe('/');
    expect(screen.getByText('Home page')).toBeTruthy();
  });

  it('closes with its visible "Close" button and by a click outside, returning focus to the page', async () => {
    const user = userEvent.setup();
    renderRoute('/advertise', Advertise);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    const reopen = screen.getByRole('button', { name: 'Join the Waitlist' });
    await vi.waitFor(() => expect(document.activeElement).toBe(reopen));
    await user.click(reopen);
    await user.click(document.querySelector('.forms-modal__backdrop')!);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('without the code, "Close" and "Join the Waitlist" are GET forms to the page without and with the dialog', () => {
    renderRoute('/advertise', Advertise, ['/advertise?waitlist=closed']);
    expect(screen.queryByRole('dialog')).toBeNull();
    const reopen = screen.getByRole('button', { name: 'Join the Waitlist' }).closest('form')!;
    expect([reopen.method, reopen.getAttribute('action')]).toEqual(['get', '/advertise']);
  });

  it('"Close" posts nothing: a GET form to /advertise?waitlist=closed', () => {
    renderRoute('/advertise', Advertise);
    const form = screen.getByRole('button', { name: 'Close' }).closest('form')!;
    expect([
      form.method,
      form.getAttribute('action'),
      new URLSearchParams(new FormData(form) as unknown as Record<string, string>).toString(),
    ]).toEqual(['get', '/advertise', 'waitlist=closed']);
  });
});
