import { describe, expect, it } from 'vitest';
import { contactSchema, earlyAccessSchema, submissionSchema, validateForm } from './forms';

const valid = { name: 'Acme AI', email: 'owner@acme.io', website_url: 'https://acme.io', tool_type: 'mcp-server', description: 'Does things', message: 'Hi' };

describe('submissionSchema', () => {
  it('accepts a complete submission, trimming the name and keeping the fields', () => {
    expect(validateForm(submissionSchema, { ...valid, name: '  Acme AI  ' })).toEqual({
      success: true,
      data: { name: 'Acme AI', email: 'owner@acme.io', website_url: 'https://acme.io', tool_type: 'mcp-server', description: 'Does things', message: 'Hi' },
    });
  });

  it('defaults the tool type to ai-tool and turns empty optional texts into null', () => {
    const r = validateForm(submissionSchema, { name: 'A', email: 'a@b.co', website_url: 'http://a.b', description: '  ', message: '' });
    expect(r).toEqual({ success: true, data: { name: 'A', email: 'a@b.co', website_url: 'http://a.b', tool_type: 'ai-tool', description: null, message: null } });
  });

  it('drops unknown fields', () => {
    const r = validateForm(submissionSchema, { ...valid, status: 'approved', id: 99 });
    expect(r.success && Object.keys(r.data).sort()).toEqual(['description', 'email', 'message', 'name', 'tool_type', 'website_url']);
  });

  it.each([
    ['name', '', 'Name is required'],
    ['name', '   ', 'Name is required'],
    ['name', undefined, 'Name is required'],
    ['email', '', 'Email is required'],
    ['email', undefined, 'Email is required'],
    ['email', 'not-an-email', 'Please enter a valid email address'],
    ['email', 'a@b', 'Please enter a valid email address'],
    ['email', 'a b@c.de', 'Please enter a valid email address'],
    ['website_url', '', 'Website URL is required'],
    ['website_url', undefined, 'Website URL is required'],
    ['website_url', 'acme.io', 'Please enter a valid URL (starting with http:// or https://)'],
    ['website_url', 'ftp://acme.io', 'Please enter a valid URL (starting with http:// or https://)'],
    ['website_url', 'javascript:alert(1)', 'Please enter a valid URL (starting with http:// or https://)'],
    ['message', 'x'.repeat(501), 'Message must be 500 characters or less'],
    ['tool_type', 'plugin', 'Please choose a tool type'],
  ])('rejects %s = %j with "%s"', (field, value, message) => {
    expect(validateForm(submissionSchema, { ...valid, [field]: value })).toEqual({ success: false, fieldErrors: { [field]: message } });
  });

  it('allows a message of exactly 500 characters and a description of any length', () => {
    const r = validateForm(submissionSchema, { ...valid, message: 'x'.repeat(500), description: 'y'.repeat(5000) });
    expect(r.success).toBe(true);
  });

  it('reports every invalid field at once, one message each', () => {
    expect(validateForm(submissionSchema, {})).toEqual({
      success: false,
      fieldErrors: { name: 'Name is required', email: 'Email is required', website_url: 'Website URL is required' },
    });
  });

  it('reports a body that is not an object under "form"', () => {
    const r = validateForm(submissionSchema, 'hello');
    expect(r.success).toBe(false);
    expect(!r.success && Object.keys(r.fieldErrors)).toEqual(['form']);
  });
});

describe('contactSchema', () => {
  const contact = { name: 'Ada', email: 'ada@example.com', subject: 'bug-report', message: 'It broke' };

  it('accepts each of the six subjects', () => {
    for (const subject of ['general', 'tool-suggestion', 'bug-report', 'partnership', 'privacy', 'other']) {
      expect(validateForm(contactSchema, { ...contact, subject }).success).toBe(true);
    }
  });

  it.each([
    ['name', '', 'Name is required'],
    ['email', '', 'Email is required'],
    ['email', 'ada@', 'Please enter a valid email address'],
    ['subject', '', 'Please choose a subject'],
    ['subject', 'sales', 'Please choose a subject'],
    ['subject', undefined, 'Please choose a subject'],
    ['message', ' ', 'Message is required'],
  ])('rejects %s = %j with "%s"', (field, value, message) => {
    expect(validateForm(contactSchema, { ...contact, [field]: value })).toEqual({ success: false, fieldErrors: { [field]: message } });
  });

  it('has no length limit on the message', () => {
    expect(validateForm(contactSchema, { ...contact, message: 'z'.repeat(10_000) }).success).toBe(true);
  });
});

describe('earlyAccessSchema', () => {
  it('requires a valid email', () => {
    expect(validateForm(earlyAccessSchema, { email: ' ad@vert.iser ' })).toEqual({ success: true, data: { email: 'ad@vert.iser' } });
    expect(validateForm(earlyAccessSchema, {})).toEqual({ success: false, fieldErrors: { email: 'Email is required' } });
    expect(validateForm(earlyAccessSchema, { email: 'nope' })).toEqual({ success: false, fieldErrors: { email: 'Please enter a valid email address' } });
  });
});
