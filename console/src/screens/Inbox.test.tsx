import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { person, renderConsole } from '../testing';

describe('the inbox', () => {
  it('lists contact messages and the waitlist, each with its CSV export', async () => {
    renderConsole('/inbox', person([{ role: 'moderator' }]), {
      'GET /api/contacts': {
        success: true,
        contacts: [{ id: 4, name: 'Lee', message: 'Hello', created_at: '2026-11-25T08:30:00Z' }],
      },
      'GET /api/waitlist': { success: true, waitlist: [] },
    });
    const contacts = await screen.findByRole('region', { name: 'Contact messages' });
    expect(await within(contacts).findByRole('row', { name: '4 Lee Hello 2026-11-25 08:30 UTC' })).toBeTruthy();
    expect(within(contacts).getByRole('link', { name: 'Export contact messages as CSV' }).getAttribute('href')).toBe(
      '/api/contacts.csv',
    );
    const waitlist = screen.getByRole('region', { name: 'Waitlist' });
    expect(await within(waitlist).findByText('Nothing here yet.')).toBeTruthy();
    expect(within(waitlist).getByRole('link', { name: 'Export waitlist as CSV' }).getAttribute('href')).toBe(
      '/api/waitlist.csv',
    );
  });
});
