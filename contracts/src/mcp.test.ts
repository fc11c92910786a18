import { describe, expect, it } from 'vitest';
import { mcpSeedRecordSchema, serverJsonSchema } from './mcp';

const doc = {
  name: 'io.github.acme/cafe',
  // "Café" with the accent as its own mark (NFD), as a copy from another system may carry it.
  title: 'Cafe\u0301',
  description: 'Orders at the cafe\u0301, over MCP',
  version: '1.0.0',
  packages: [
    {
      registryType: 'npm',
      identifier: '@acme/cafe',
      transport: { type: 'stdio' },
      environmentVariables: [{ name: 'CAFE_ID', description: 'The cafe\u0301 to order at' }],
    },
  ],
  _meta: { 'io.github.acme/re\u0301sume\u0301': { note: 'cre\u0300me' } },
};

describe('a server.json read by the write rules', () => {
  it('keeps its text, keys included, in NFC as every other write does', () => {
    for (const schema of [serverJsonSchema, mcpSeedRecordSchema]) {
      const parsed = schema.parse(doc);
      expect(parsed.title).toBe('Café');
      expect(parsed.description).toBe('Orders at the café, over MCP');
      expect(parsed.packages?.[0]?.environmentVariables?.[0]?.description).toBe('The café to order at');
      expect(parsed._meta).toEqual({ 'io.github.acme/résumé': { note: 'crème' } });
      expect(JSON.stringify(parsed)).toBe(JSON.stringify(parsed).normalize('NFC'));
    }
  });

  it('still refuses what it refused', () => {
    expect(serverJsonSchema.safeParse({ ...doc, description: 'a\u202eb' }).success).toBe(false);
    expect(serverJsonSchema.safeParse({ ...doc, version: 'latest' }).success).toBe(false);
  });
});
