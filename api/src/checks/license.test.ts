import { describe, expect, it } from 'vitest';
import { licenseFacts } from './license';

describe('license from the package metadata', () => {
  it('keeps a valid SPDX expression as it is', () => {
    expect(licenseFacts('MIT')).toEqual({ status: 'known', expression: 'MIT' });
    expect(licenseFacts('(MIT OR Apache-2.0)')).toEqual({ status: 'known', expression: '(MIT OR Apache-2.0)' });
  });
  it('corrects a common misspelling and says what was declared', () => {
    expect(licenseFacts('Apache 2.0')).toEqual({ status: 'known', expression: 'Apache-2.0', declared: 'Apache 2.0' });
  });
  it('says unknown for text that is no license identifier, with the text', () => {
    expect(licenseFacts('SEE LICENSE IN LICENSE.md')).toEqual({
      status: 'unknown',
      declared: 'SEE LICENSE IN LICENSE.md',
    });
    expect(licenseFacts('UNLICENSED')).toEqual({ status: 'unknown', declared: 'UNLICENSED' });
  });
  it('says missing when the package declares none', () => {
    expect(licenseFacts(undefined)).toEqual({ status: 'missing' });
    expect(licenseFacts('  ')).toEqual({ status: 'missing' });
  });
});
