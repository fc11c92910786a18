import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Submit from '../routes/Submit';
import Contact from '../routes/Contact';
import { jsonResponse, renderRoute, stubFetch } from '../../test/renderRoute';
import { loadValidation } from './formRoute';

vi.mock('./formRoute', async (original) => {
  const actual = await original<typeof import('./formRoute')>();
  return { ...actual, loadValidation: vi.fn(actual.loadValidation) };
});

afterEach(() => {
  vi.mocked(loadValidation).mockClear();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** The checks' chunk cannot be fetched (offline) until `online()`. */
function offlineChecks() {
  const actual = vi.mocked(loadValidation).getMockImplementation()!;
  vi.mocked(loadValidation).mockImplementation(() =>
    Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/validation.js')),
  );
  return () => vi.mocked(loadValidation).mockImplementation(actual);
}

describe("a form page's checks", () => {
  it('wait for the visitor to touch the form: a visit that only reads never evaluates them', async () => {
    // The test's clock: every timer the page set (an idle moment, a delay after start-up) is run out below.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderRoute('/submit', Submit);
    const heading = await screen.findByRole('heading', { level: 1, name: 'Submit Your Tool' });
    // Past every moment the page waits for after start-up (a minute on its clock), and a press outside the form.
    await vi.advanceTimersByTimeAsync(60_000);
    await vi.runAllTimersAsync();
    await user.click(heading);
    expect(loadValidation).not.toHaveBeenCalled();
    await user.click(screen.getByLabelText(/^Tool Name/));
    await waitFor(() => expect(loadValidation).toHaveBeenCalledTimes(1));
    await user.type(screen.getByLabelText(/^Tool Name/), 'Acme');
    expect(loadValidation).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['/submit', Submit, 'Submit Tool', 'An unexpected error occurred. Please try again.'],
    [
      '/contact',
      Contact,
      'Send Message',
      'Error Sending MessageThere was an error sending your message. Please try again or contact us directly at',
    ],
  ] as const)(
    'that cannot be loaded (offline): %s shows its network-failure text with focus on it; a later submit loads them again',
    async (path, route, button, text) => {
      const online = offlineChecks();
      stubFetch(async () => jsonResponse(400, { success: false, error: 'x' }));
      const user = userEvent.setup();
      renderRoute(path, route);
      await user.click(screen.getByLabelText(/^(Tool )?Name/));
      await user.click(screen.getByRole('button', { name: button }));
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toContain(text);
      await waitFor(() => expect(document.activeElement).toBe(alert));
      online();
      await user.click(screen.getByRole('button', { name: button }));
      // The checks ran this time: the empty fields' messages, and the failure message is gone.
      expect(await screen.findByText(/^(Email is required)$/)).toBeTruthy();
      expect(screen.queryByRole('alert')).toBeNull();
    },
  );
});
