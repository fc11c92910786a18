import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { person, renderConsole, type Call } from '../testing';

const pending = {
  submissions: [
    {
      id: 11,
      name: 'Alpha',
      tool_type: 'ai-tool',
      website_url: 'https://alpha.example',
      created_at: '2026-11-25T10:00:00Z',
    },
    { id: 12, name: 'Beta', tool_type: 'mcp-server', website_url: 'https://beta.example' },
    { id: 13, name: 'Gamma', tool_type: 'ai-tool', website_url: 'https://gamma.example' },
  ],
};
const queue = { 'GET /api/submissions?status=pending': pending };
const posts = (calls: Call[]) => calls.filter((c) => c.method === 'POST');

describe('the submissions queue', () => {
  it('a viewer reads the queue but is offered no selection and no action', async () => {
    renderConsole('/submissions', person([{ role: 'viewer' }]), queue);
    expect(await screen.findByRole('rowheader', { name: 'Alpha' })).toBeTruthy();
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: /Approve/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Reject/ })).toBeNull();
  });

  it('approving several asks first, stating the count, and sends the ids with category and pricing', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole('/submissions', person([{ role: 'moderator' }]), {
      ...queue,
      'POST /api/submissions/approve': { success: true, approved: 2 },
    });
    await user.click(await screen.findByRole('checkbox', { name: 'Select Alpha' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Gamma' }));
    await user.selectOptions(screen.getByLabelText('Category'), 'Development');
    await user.selectOptions(screen.getByLabelText('Pricing'), 'Freemium');
    await user.click(screen.getByRole('button', { name: 'Approve selected…' }));
    // Nothing is sent before the confirmation, which states how many.
    expect(posts(calls)).toHaveLength(0);
    expect(screen.getByText(/^Approve 2 submissions as Development, Freemium\?/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Approve 2 submissions' }));
    expect(await screen.findByText('Approved 2 submissions.')).toBeTruthy();
    expect(posts(calls)).toEqual([
      {
        method: 'POST',
        path: '/api/submissions/approve',
        body: { ids: [11, 13], category: 'Development', pricing: 'Freemium' },
      },
    ]);
  });

  it('select-all counts every row; cancel sends nothing', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole('/submissions', person([{ role: 'moderator' }]), queue);
    await user.click(await screen.findByRole('checkbox', { name: 'Select every submission' }));
    await user.type(screen.getByLabelText('Reason'), 'spam');
    await user.click(screen.getByRole('button', { name: 'Reject selected…' }));
    expect(screen.getByText('Reject 3 submissions?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByText('Reject 3 submissions?')).toBeNull();
    expect(posts(calls)).toHaveLength(0);
  });

  it('rejecting needs a reason, and sends it', async () => {
    const user = userEvent.setup();
    const { calls } = renderConsole('/submissions', person([{ role: 'moderator' }]), {
      ...queue,
      'POST /api/submissions/reject': { rejected: 1 },
    });
    await user.click(await screen.findByRole('checkbox', { name: 'Select Beta' }));
    const reject = screen.getByRole('button', { name: 'Reject selected…' }) as HTMLButtonElement;
    expect(reject.disabled).toBe(true);
    await user.type(screen.getByLabelText('Reason'), '  not an AI tool ');
    expect(reject.disabled).toBe(false);
    await user.click(reject);
    await user.click(screen.getByRole('button', { name: 'Reject 1 submission' }));
    expect(await screen.findByText('Rejected 1 submission.')).toBeTruthy();
    expect(posts(calls)[0].body).toEqual({ ids: [12], reason: 'not an AI tool' });
  });

  it('a refused reason is marked beside its field, which takes focus, and editing it clears the mark', async () => {
    const user = userEvent.setup();
    renderConsole('/submissions', person([{ role: 'moderator' }]), {
      ...queue,
      'POST /api/submissions/reject': {
        status: 400,
        body: {
          success: false,
          error: 'Not accepted: Reason: at most 500 characters',
          fieldErrors: { reason: 'At most 500 characters' },
        },
      },
    });
    await user.click(await screen.findByRole('checkbox', { name: 'Select Beta' }));
    await user.type(screen.getByLabelText('Reason'), 'too long');
    await user.click(screen.getByRole('button', { name: 'Reject selected…' }));
    await user.click(screen.getByRole('button', { name: 'Reject 1 submission' }));
    const field = screen.getByLabelText('Reason');
    await vi.waitFor(() => expect(document.activeElement).toBe(field));
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(field.getAttribute('aria-describedby')!)?.textContent).toBe(
      'At most 500 characters',
    );
    expect(screen.getByText('Not rejected: check Reason.')).toBeTruthy();
    await user.type(field, '!');
    expect(field.getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByText('At most 500 characters')).toBeNull();
  });

  it("shows the server's refusal", async () => {
    const user = userEvent.setup();
    renderConsole('/submissions', person([{ role: 'moderator' }]), {
      ...queue,
      'POST /api/submissions/approve': {
        status: 403,
        body: { success: false, error: 'Your roles do not allow this.' },
      },
    });
    await user.click(await screen.findByRole('checkbox', { name: 'Select Alpha' }));
    await user.click(screen.getByRole('button', { name: 'Approve selected…' }));
    await user.click(screen.getByRole('button', { name: 'Approve 1 submission' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Your roles do not allow this.');
  });
});
