import { describe, expect, it } from 'vitest';
import { failure, success } from './answers';

describe('the API answer shape', () => {
  it('puts the payload beside success: true, and a failure as success: false with its error and field errors', () => {
    expect(success({ data: [1] })).toEqual({ success: true, data: [1] });
    expect(success({})).toEqual({ success: true });
    expect(failure('Not found')).toEqual({ success: false, error: 'Not found' });
    expect(failure('Invalid', { email: 'Email is required' })).toEqual({
      success: false,
      error: 'Invalid',
      fieldErrors: { email: 'Email is required' },
    });
  });
});
