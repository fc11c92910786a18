import { describe, expect, it, vi } from 'vitest';
import type { JsonApi } from '@aitools/platform';
import { EMPTY_SUBMISSION, submitAction, SUBMIT_FAILED, SUBMIT_UNEXPECTED } from '../features/submit/submitForm';
import { contactAction } from '../features/contact/contactForm';
import { earlyAccessAction, earlyAccessRecord, EARLY_ACCESS_FAILED } from '../features/advertise/earlyAccess';
import { TOO_MANY_REQUESTS } from '@aitools/contracts/answers';
import { formPageLoader, newIdempotencyKey } from './formRoute';
import { UNREADABLE_FORM, UNSUPPORTED_FORM } from '@aitools/contracts/formBody';

const KEY = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';

/** A page post as a browser without JavaScript sends it. */
function post(path: string, fields: Record<string, string>) {
  return new Request(`http://site.test${path}`, {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
}

function fakeApi(answer: Awaited<ReturnType<JsonApi['fetchJson']>> | Error) {
  const fetchJson = vi.fn(async () => {
    if (answer instanceof Error) throw answer;
    return answer;
  });
  return { api: { fetchJson } as JsonApi, fetchJson };
}

type Args = Parameters<typeof submitAction>[0];
const run = (action: (a: Args) => Promise<unknown>, request: Request, api: JsonApi) =>
  action({ request, context: { api }, params: {} } as unknown as Args);

/** React Router's data() and redirect() results, as plain facts. */
function outcome(result: unknown) {
  if (result instanceof Response) return { status: result.status, location: result.headers.get('Location') };
  const r = result as { data: unknown; init?: { status?: number } };
  return { status: r.init?.status, data: r.data };
}

const validSubmission = {
  ...EMPTY_SUBMISSION,
  name: ' Acme ',
  email: 'o@acme.io',
  website_url: 'https://acme.io',
  idempotencyKey: KEY,
};

describe("the forms pages' loader", () => {
  it('gives each page load a fresh random key', () => {
    const a = formPageLoader().idempotencyKey;
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(newIdempotencyKey()).not.toBe(a);
  });
});

describe('submitAction (the /submit post)', () => {
  it.each([
    [{ name: '   ' }, { name: 'Name is required' }],
    [{ email: '' }, { email: 'Email is required' }],
    [{ email: 'o@acme' }, { email: 'Please enter a valid email address' }],
    [{ website_url: '' }, { website_url: 'Website URL is required' }],
    [{ website_url: 'acme.io' }, { website_url: 'Please enter a valid URL (starting with http:// or https://)' }],
    [{ message: 'm'.repeat(501) }, { message: 'Message must be 500 characters or less' }],
  ])('%j -> 400 %j, the values kept, nothing sent', async (change, fieldErrors) => {
    const { api, fetchJson } = fakeApi({ ok: true, status: 201, body: null });
    const fields = { ...validSubmission, ...change };
    const res = outcome(await run(submitAction, post('/submit', fields), api));
    const { idempotencyKey: _k, ...values } = fields;
    expect(res).toEqual({ status: 400, data: { fieldErrors, values, idempotencyKey: KEY } });
    expect(fetchJson).not.toHaveBeenCalled();
  });

  it('an empty post gets the three required-field messages', async () => {
    const { api } = fakeApi({ ok: true, status: 201, body: null });
    const res = outcome(await run(submitAction, post('/submit', {}), api)) as { data: { fieldErrors: object } };
    expect(res.data.fieldErrors).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      website_url: 'Website URL is required',
    });
  });

  it('sends the parsed data with its key (header and body), then redirects to the Thank You page (303)', async () => {
    const { api, fetchJson } = fakeApi({ ok: true, status: 201, body: null });
    expect(outcome(await run(submitAction, post('/submit', validSubmission), api))).toEqual({
      status: 303,
      location: '/submit?submitted=1',
    });
    expect(fetchJson).toHaveBeenCalledWith('/api/submissions', {
      method: 'POST',
      body: {
        name: 'Acme',
        email: 'o@acme.io',
        website_url: 'https://acme.io',
        tool_type: 'ai-tool',
        description: null,
        message: null,
        idempotencyKey: KEY,
      },
      headers: { 'Idempotency-Key': KEY },
    });
  });

  it('replaces a missing or malformed key with a fresh one', async () => {
    const { api, fetchJson } = fakeApi({ ok: true, status: 201, body: null });
    await run(submitAction, post('/submit', { ...validSubmission, idempotencyKey: '<script>' }), api);
    const [, init] = fetchJson.mock.calls[0] as unknown as [string, { headers: Record<string, string> }];
    expect(init.headers['Idempotency-Key']).toMatch(/^[0-9a-f]{32}$/);
  });

  it('maps a server error to the refusal text and a network failure to the unexpected one', async () => {
    const failed = outcome(
      await run(
        submitAction,
        post('/submit', validSubmission),
        fakeApi({ ok: false, status: 500, body: { success: false, error: 'Internal server error' } }).api,
      ),
    );
    expect(failed).toMatchObject({ status: 500, data: { formError: SUBMIT_FAILED, values: { name: ' Acme ' } } });
    const unreachable = outcome(
      await run(submitAction, post('/submit', validSubmission), fakeApi(new TypeError('Failed to fetch')).api),
    );
    expect(unreachable).toMatchObject({ status: 503, data: { formError: SUBMIT_UNEXPECTED, idempotencyKey: KEY } });
    expect([SUBMIT_FAILED, SUBMIT_UNEXPECTED]).toEqual([
      'Failed to submit your tool. Please try again.',
      'An unexpected error occurred. Please try again.',
    ]);
  });
});

describe('contactAction (the /contact post)', () => {
  const contact = { name: 'Ada', email: 'ada@x.io', subject: 'other', message: 'Hi', idempotencyKey: KEY };
  it.each([
    [{ name: '' }, { name: 'Name is required' }],
    [{ email: 'ada' }, { email: 'Please enter a valid email address' }],
    [{ subject: '' }, { subject: 'Please choose a subject' }],
    [{ message: '' }, { message: 'Message is required' }],
  ])('%j -> 400 %j, nothing sent', async (change, fieldErrors) => {
    const { api, fetchJson } = fakeApi({ ok: true, status: 200, body: null });
    expect(outcome(await run(contactAction, post('/contact', { ...contact, ...change }), api))).toMatchObject({
      status: 400,
      data: { fieldErrors },
    });
    expect(fetchJson).not.toHaveBeenCalled();
  });

  it('sends, then redirects to the success banner; a failure keeps the values for the error banner', async () => {
    const ok = fakeApi({ ok: true, status: 200, body: null });
    expect(outcome(await run(contactAction, post('/contact', contact), ok.api))).toEqual({
      status: 303,
      location: '/contact?sent=1',
    });
    expect(ok.fetchJson.mock.calls[0]).toEqual([
      '/api/contact/submit',
      {
        method: 'POST',
        body: { name: 'Ada', email: 'ada@x.io', subject: 'other', message: 'Hi', idempotencyKey: KEY },
        headers: { 'Idempotency-Key': KEY },
      },
    ]);
    const failed = outcome(
      await run(contactAction, post('/contact', contact), fakeApi({ ok: false, status: 500, body: null }).api),
    );
    expect(failed).toEqual({
      status: 500,
      data: {
        fieldErrors: {},
        values: { name: 'Ada', email: 'ada@x.io', subject: 'other', message: 'Hi' },
        idempotencyKey: KEY,
        formError: 'send',
      },
    });
  });
});

describe('earlyAccessAction (the /advertise post)', () => {
  it('checks, sends, redirects; a refusal is the "couldn\'t save" message', async () => {
    const ok = fakeApi({ ok: true, status: 200, body: null });
    expect(
      outcome(await run(earlyAccessAction, post('/advertise', { email: ' a@b.co ', idempotencyKey: KEY }), ok.api)),
    ).toEqual({ status: 303, location: '/advertise?subscribed=1' });
    expect(ok.fetchJson.mock.calls[0]).toEqual([
      '/api/early-access',
      { method: 'POST', body: { email: 'a@b.co', idempotencyKey: KEY }, headers: { 'Idempotency-Key': KEY } },
    ]);
    expect(outcome(await run(earlyAccessAction, post('/advertise', { email: '' }), ok.api))).toMatchObject({
      status: 400,
      data: { fieldErrors: { email: 'Email is required' } },
    });
    expect(
      outcome(
        await run(
          earlyAccessAction,
          post('/advertise', { email: 'a@b.co' }),
          fakeApi({ ok: false, status: 500, body: null }).api,
        ),
      ),
    ).toMatchObject({ status: 500, data: { formError: EARLY_ACCESS_FAILED } });
  });

  it('earlyAccessRecord is the documented record', () => {
    expect(earlyAccessRecord(' a@b.co ', new Date('2026-11-23T00:00:00Z'))).toEqual({
      email: 'a@b.co',
      timestamp: '2026-11-23T00:00:00.000Z',
      type: 'early_access_advertising',
      source: 'advertise_page_modal',
    });
  });
});

describe('every form post', () => {
  const posts = [
    ['/submit', submitAction, validSubmission],
    ['/contact', contactAction, { name: 'Ada', email: 'ada@x.io', subject: 'other', message: 'Hi' }],
    ['/advertise', earlyAccessAction, { email: 'a@b.co' }],
  ] as const;

  it.each(posts)(
    '%s over the budget (429) shows the rate-limit text in place of the failure text',
    async (path, action, fields) => {
      const tooMany = fakeApi({ ok: false, status: 429, body: { success: false, error: TOO_MANY_REQUESTS } });
      expect(outcome(await run(action, post(path, fields), tooMany.api))).toMatchObject({
        status: 429,
        data: { fieldErrors: {}, formError: 'Too many requests. Please wait a minute and try again.' },
      });
    },
  );

  it.each(posts)(
    '%s edited after a lost answer (the key refused with 422) is sent again with a new key, and that key kept',
    async (path, action, fields) => {
      const answers = [
        { ok: false, status: 422, body: { success: false, error: 'Please correct the highlighted fields.' } },
        { ok: false, status: 500, body: null },
      ];
      const fetchJson = vi.fn(async () => answers.shift()!);
      const res = outcome(
        await run(action, post(path, { ...fields, idempotencyKey: KEY }), { fetchJson } as unknown as JsonApi),
      ) as {
        data: { idempotencyKey: string };
      };
      const keys = (fetchJson.mock.calls as unknown as [string, { headers: Record<string, string> }][]).map(
        ([, init]) => init.headers['Idempotency-Key'],
      );
      expect(keys[0]).toBe(KEY);
      expect(keys).toHaveLength(2);
      expect(keys[1]).toMatch(/^[0-9a-f]{32}$/);
      expect(keys[1]).not.toBe(keys[0]);
      // A retry of this post (its answer lost too) goes with the new key.
      expect(res.data.idempotencyKey).toBe(keys[1]);
    },
  );

  it('keeps line breaks as LF, as the checks and the browser count them (a CR LF is one character)', async () => {
    const message = Array(250).fill('a').join('\r\n');
    const { api } = fakeApi({ ok: true, status: 201, body: null });
    const res = outcome(
      await run(submitAction, post('/submit', { ...validSubmission, website_url: '', message }), api),
    ) as { data: { values: { message: string } } };
    expect(res.data.values.message).toBe(Array(250).fill('a').join('\n'));
    expect(res.data.values.message).toHaveLength(499);
  });
});

describe('a page post whose body is not a readable web form', () => {
  const CRLF = '\r\n';
  const multipart = (fields: Record<string, string>) =>
    Object.entries(fields)
      .map(([name, value]) => `--XbX${CRLF}Content-Disposition: form-data; name="${name}"${CRLF}${CRLF}${value}${CRLF}`)
      .join('') + `--XbX--${CRLF}`;
  const raw = (path: string, body: BodyInit | null, type?: string) =>
    new Request(`http://site.test${path}`, { method: 'POST', body, headers: type ? { 'Content-Type': type } : {} });

  it('reads multipart/form-data (enctype="multipart/form-data") like urlencoded', async () => {
    const ok = fakeApi({ ok: true, status: 200, body: null });
    const request = raw(
      '/advertise',
      multipart({ email: 'x@y.co', idempotencyKey: KEY }),
      'multipart/form-data; boundary=XbX',
    );
    expect(outcome(await run(earlyAccessAction, request, ok.api))).toEqual({
      status: 303,
      location: '/advertise?subscribed=1',
    });
    expect((ok.fetchJson.mock.calls[0] as unknown[])[1]).toMatchObject({
      body: { email: 'x@y.co', idempotencyKey: KEY },
    });
    // A browser's own multipart (FormData) reads the same.
    const form = new FormData();
    form.set('name', 'Ada');
    form.set('email', 'ada@x.io');
    form.set('subject', 'other');
    form.set('message', 'Hi');
    expect(outcome(await run(contactAction, raw('/contact', form), ok.api))).toEqual({
      status: 303,
      location: '/contact?sent=1',
    });
  });

  it.each([
    ['text/plain', 'email=x@y.co', 415],
    ['application/json', '{"email":"x@y.co"}', 415],
    ['application/xml', '<email>x@y.co</email>', 415],
    [undefined, 'email=x@y.co', 415],
    ['application/x-www-form-urlencoded', 'email=%ZZ', 400],
    ['application/x-www-form-urlencoded', 'email=x%', 400],
    ['application/x-www-form-urlencoded', 'email=%FF%FE', 400],
    ['application/x-www-form-urlencoded', new Uint8Array([0x65, 0x3d, 0xc3, 0x28]), 400],
    ['multipart/form-data; boundary=XbX', 'not multipart at all', 400],
    ['multipart/form-data', multipart({ email: 'x@y.co' }), 400],
  ])('%s %j -> %i with a form-level reason, the empty form again, nothing sent', async (type, body, status) => {
    for (const [path, action] of [
      ['/advertise', earlyAccessAction],
      ['/contact', contactAction],
      ['/submit', submitAction],
    ] as const) {
      const { api, fetchJson } = fakeApi({ ok: true, status: 200, body: null });
      const res = outcome(await run(action, raw(path, body, type), api));
      expect(res).toMatchObject({
        status,
        data: { fieldErrors: {}, formError: status === 415 ? UNSUPPORTED_FORM : UNREADABLE_FORM },
      });
      expect(fetchJson).not.toHaveBeenCalled();
    }
  });
});
