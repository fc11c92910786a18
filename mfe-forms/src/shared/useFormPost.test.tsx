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

afterEach(() => vi.mocked(loadValidation).mockClear());

describe("a form page's checks", () => {
  it('wait for the visitor to touch the form: a visit that only reads never evaluates them', async () => {
    const user = userEvent.setup();
    renderRoute('/submit', Submit);
    const heading = await screen.findByRole('heading', { level: 1, name: 'Submit Your Tool' });
    // Past the browser's idle moments after start-up, and a press outside the form.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await user.click(heading);
    expect(loadValidation).not.toHaveBeenCalled();
    await user.click(screen.getByLabelText(/^Tool Name/));
    await waitFor(() => expect(loadValidation).toHaveBeenCalledTimes(1));
    await user.type(screen.getByLabelText(/^Tool Name/), 'Acme');
    expect(loadValidation).toHaveBeenCalledTimes(1);
  });
});
