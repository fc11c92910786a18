import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { person, renderConsole } from '../testing';

const queue = {
  success: true,
  rugPulls: [{ id: 3, slug: 'poisoned-mcp-server', version: '1.0.0', flaggedAt: '2026-12-01T08:30:00Z' }],
  findings: [
    {
      slug: 'poisoned-mcp-server',
      findings: [
        { id: 'f1', rule: 'secret-reference', severity: 'high', where: 'tool add, description', text: '~/.ssh/id_rsa' },
        {
          id: 'f2',
          rule: 'model-markup',
          severity: 'high',
          where: 'tool add, description',
          text: '<IMPORTANT>',
          dismissed: { reason: 'Quoted', at: '2026-12-01T09:00:00Z' },
        },
      ],
    },
  ],
  failing: [{ slug: 'gone-mcp-server', since: '2026-11-20T10:00:00Z' }],
};

describe('the checks queue', () => {
  it('lists changes within one version and findings, a dismissed one with its reason', async () => {
    renderConsole('/checks', person([{ role: 'moderator' }]), { 'GET /api/checks': queue });
    const changes = await screen.findByRole('region', { name: 'Changes within one version' });
    expect(within(changes).getByText(/its tools changed within version 1\.0\.0/)).toBeTruthy();
    const findings = screen.getByRole('region', { name: 'Findings' });
    expect(within(findings).getByText('~/.ssh/id_rsa')).toBeTruthy();
    expect(within(findings).getByText(/Dismissed .*: Quoted/)).toBeTruthy();
    expect(within(findings).getAllByRole('button', { name: 'Dismiss' })).toHaveLength(1);
    const failing = screen.getByRole('region', { name: 'Failing for 7 days' });
    expect(within(failing).getByRole('link', { name: 'gone-mcp-server' }).getAttribute('href')).toBe(
      '/tool/gone-mcp-server',
    );
    expect(failing.textContent).toMatch(/every health check failed since/);
  });

  it('dismisses with a reason, and says beside the field when the reason is missing', async () => {
    const { calls } = renderConsole('/checks', person([{ role: 'moderator' }]), {
      'GET /api/checks': queue,
      'POST /api/checks/dismiss': { success: true, dismissed: 'f1' },
    });
    const findings = await screen.findByRole('region', { name: 'Findings' });
    fireEvent.click(within(findings).getByRole('button', { name: 'Dismiss' }));
    const field = within(findings).getByLabelText('Reason (dismiss)');
    expect(await within(findings).findByText('Give a reason.')).toBeTruthy();
    expect(field.getAttribute('aria-describedby')).toBe('dismiss-f1-error');
    fireEvent.change(field, { target: { value: 'An example path in the docs' } });
    fireEvent.click(within(findings).getByRole('button', { name: 'Dismiss' }));
    expect(await screen.findByText('Dismiss: done.')).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/checks/dismiss')?.body).toEqual({
      slug: 'poisoned-mcp-server',
      findingId: 'f1',
      reason: 'An example path in the docs',
    });
  });

  it('shows a viewer the queue without the forms', async () => {
    renderConsole('/checks', person([{ role: 'viewer' }]), { 'GET /api/checks': queue });
    await screen.findByRole('region', { name: 'Findings' });
    expect(screen.queryByRole('button', { name: 'Dismiss' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Mark reviewed' })).toBeNull();
  });
});
