import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Submit from '../routes/Submit';
import { renderRoute } from '../../test/renderRoute';
import { loadValidation } from './formRoute';

vi.mock('./formRoute', async (original) => {
  const actual = await original<typeof import('./formRoute')>();
  return { ...actual, loadValidation: vi.fn(actual.loadValidation) };
});

afterEach(() => {
  vi.mocked(loadValidation).mockClear();
  vi.useRealTimers();
});

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
});
