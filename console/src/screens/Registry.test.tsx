import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { person, renderConsole } from '../testing';
import type { JobRun } from './Registry';

const run = (over: Partial<JobRun>): JobRun => ({
  id: 1,
  job: 'versions',
  slot: '2026-12-01T00:00:00.000Z',
  attempt: 1,
  trigger: 'schedule',
  instance: 'web-1:42',
  startedAt: '2026-12-01T00:00:01.000Z',
  finishedAt: '2026-12-01T00:00:09.000Z',
  status: 'ok',
  reason: null,
  summary: '1 updated, 1 inspections queued: acme 1.0.0 -> 1.1.0',
  ...over,
});
const failed = run({
  id: 2,
  startedAt: '2026-12-02T00:00:01.000Z',
  status: 'failed',
  reason: '1 of 30 servers could not be checked: down: answered 500',
  summary: 'nothing changed',
  attempt: 2,
  trigger: 'retry',
});
const jobs = {
  success: true,
  jobs: [
    {
      name: 'versions',
      about: 'Latest releases from npm',
      every: 'daily (UTC midnight)',
      last: failed,
      lastGood: run({}),
      next: '2026-12-03T00:00:00.000Z',
    },
    { name: 'inspect', about: '', every: 'every 5 minutes', next: '2026-12-02T10:05:00.000Z' },
  ],
  runs: [failed, run({})],
  inspectionQueue: [{ slug: 'acme', version: '1.1.0', reason: 'new version 1.1.0', queuedAt: '2026-12-01T00:00:09Z' }],
};

describe('the Registry screen', () => {
  it("shows each job's schedule, last and next run, a failure's reason and the last good run kept", async () => {
    renderConsole('/registry', person([{ role: 'editor' }]), { 'GET /api/jobs': jobs });
    const table = await screen.findByRole('table', { name: 'Jobs' });
    const versions = within(table).getByRole('row', { name: /^versions/ });
    expect(within(versions).getByText('daily (UTC midnight)')).toBeTruthy();
    expect(
      within(versions).getByText(
        /2026-12-02 00:00 UTC: failed: 1 of 30 servers could not be checked: down: answered 500/,
      ),
    ).toBeTruthy();
    expect(within(versions).getByText('Last good run 2026-12-01 00:00 UTC; its facts are kept.')).toBeTruthy();
    expect(within(versions).getByText('2026-12-03 00:00 UTC')).toBeTruthy();
    const inspect = within(table).getByRole('row', { name: /^inspect/ });
    expect(within(inspect).getByText('never')).toBeTruthy();
    const runs = screen.getByRole('table', { name: 'Recent runs' });
    expect(within(runs).getByText('1 updated, 1 inspections queued: acme 1.0.0 -> 1.1.0')).toBeTruthy();
    expect(within(runs).getByText(/\(try 2\)/)).toBeTruthy();
    expect(within(runs).getAllByText('schedule on web-1:42')).toHaveLength(1);
    const waiting = screen.getByRole('region', { name: 'Waiting for an inspection' });
    expect(within(waiting).getByText(/acme 1\.1\.0: new version 1\.1\.0/)).toBeTruthy();
    // The place the upstream registries will take.
    expect(screen.getByRole('region', { name: 'Upstreams' })).toBeTruthy();
  });

  it('runs a job now from a form and says so; a refusal is shown with its reason', async () => {
    const { calls } = renderConsole('/registry', person([{ role: 'admin' }]), {
      'GET /api/jobs': jobs,
      'POST /api/jobs/versions/run': { status: 202, body: { success: true, started: 'versions' } },
      'POST /api/jobs/inspect/run': { status: 403, body: { success: false, error: 'Your roles do not allow this.' } },
    });
    const button = await screen.findByRole('button', { name: 'Run versions now' });
    expect(button.closest('form')?.getAttribute('method')).toBe('post');
    fireEvent.click(button);
    expect(await screen.findByText('versions: run started.')).toBeTruthy();
    expect(calls.filter((c) => c.path === '/api/jobs/versions/run')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Run inspect now' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Your roles do not allow this.');
  });

  it('is offered to editors and admins only', async () => {
    renderConsole('/registry', person([{ role: 'moderator' }]), { 'GET /api/jobs': jobs });
    expect(await screen.findByText('Your roles do not include this section.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Registry' })).toBeNull();
  });
});
