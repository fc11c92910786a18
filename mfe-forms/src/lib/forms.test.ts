import { afterEach, describe, expect, it, vi } from 'vitest';
import { EMPTY_SUBMISSION, sendSubmission, SUBMIT_FAILED, SUBMIT_UNEXPECTED } from './submitForm';
import { sendContactMessage } from './contactForm';
import { earlyAccessRecord } from './earlyAccess';
import { jsonResponse, stubFetch } from '../test/renderRoute';

afterEach(() => vi.unstubAllGlobals());

const valid = { ...EMPTY_SUBMISSION, name: 'Acme', email: 'o@acme.io', website_url: 'https://acme.io' };

describe('submission as the browser checks it (shared schema, before any request)', () => {
  it.each([
    [{ name: '   ' }, { name: 'Name is required' }],
    [{ email: '' }, { email: 'Email is required' }],
    [{ email: 'o@acme' }, { email: 'Please enter a valid email address' }],
    [{ website_url: '' }, { website_url: 'Website URL is required' }],
    [{ website_url: 'acme.io' }, { website_url: 'Please enter a valid URL (starting with http:// or https://)' }],
    [{ message: 'm'.repeat(501) }, { message: 'Message must be 500 characters or less' }],
  ])('%j -> %j', async (change, fieldErrors) => {
    const fetch = stubFetch(async () => jsonResponse(201, { success: true, id: 1 }));
    expect(await sendSubmission({ ...valid, ...change })).toEqual({ ok: false, fieldErrors });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('sends the parsed data (trimmed, nulls for empty optional texts)', async () => {
    const fetch = stubFetch(async () => jsonResponse(201, { success: true, id: 1 }));
    expect(await sendSubmission({ ...valid, name: ' Acme ' })).toEqual({ ok: true });
    expect(JSON.parse(String(fetch.mock.calls[0][1]?.body))).toEqual({ name: 'Acme', email: 'o@acme.io', website_url: 'https://acme.io', tool_type: 'ai-tool', description: null, message: null });
  });

  it('maps a server error to SPEC section 8\'s database-error text and a network failure to the unexpected one', async () => {
    stubFetch(async () => jsonResponse(500, { success: false, error: 'Internal server error' }));
    expect(await sendSubmission(valid)).toEqual({ ok: false, fieldErrors: {}, error: SUBMIT_FAILED });
    stubFetch(async () => Promise.reject(new TypeError('Failed to fetch')));
    expect(await sendSubmission(valid)).toEqual({ ok: false, fieldErrors: {}, error: SUBMIT_UNEXPECTED });
    expect([SUBMIT_FAILED, SUBMIT_UNEXPECTED]).toEqual(['Failed to submit your tool. Please try again.', 'An unexpected error occurred. Please try again.']);
  });
});

describe('contact message as the browser checks it', () => {
  const contact = { name: 'Ada', email: 'ada@x.io', subject: 'other', message: 'Hi' };
  it.each([
    [{ name: '' }, { name: 'Name is required' }],
    [{ email: 'ada' }, { email: 'Please enter a valid email address' }],
    [{ subject: '' }, { subject: 'Please choose a subject' }],
    [{ message: '' }, { message: 'Message is required' }],
  ])('%j -> %j', async (change, fieldErrors) => {
    const fetch = stubFetch(async () => jsonResponse(200, { success: true }));
    expect(await sendContactMessage({ ...contact, ...change })).toEqual({ ok: false, fieldErrors });
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('earlyAccessRecord', () => {
  it('is the SPEC section 3 record', () => {
    expect(earlyAccessRecord(' a@b.co ', new Date('2026-11-23T00:00:00Z'))).toEqual({ email: 'a@b.co', timestamp: '2026-11-23T00:00:00.000Z', type: 'early_access_advertising', source: 'advertise_page_modal' });
  });
});
