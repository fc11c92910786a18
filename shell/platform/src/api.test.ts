import { describe, expect, it } from 'vitest';
import { jsonResult } from './api';

describe('jsonResult', () => {
  it('reads a body that is not JSON as none', async () => {
    expect(await jsonResult(new Response('not json', { status: 200 }))).toEqual({ ok: true, status: 200, body: null });
  });

  it('rejects when the call is aborted while its body arrives, as it does when aborted before', async () => {
    const res = new Response('{"a":1}', { status: 200 });
    Object.defineProperty(res, 'json', {
      value: () => Promise.reject(new DOMException('The operation was aborted.', 'AbortError')),
    });
    await expect(jsonResult(res)).rejects.toMatchObject({ name: 'AbortError' });
  });
});
