import { describe, expect, it } from 'vitest';
import { ROUTE_TABLE } from '@aitools/platform/routes';
import { TOOL_QUERY_PARAMS } from '@aitools/contracts/toolQuery';
import { canonicalAddress, canonicalPageAddress, isPageAddress } from './canonicalAddress';

describe('canonicalAddress', () => {
  it('keeps the parameters the route reads, sorted by name, and drops every other', () => {
    expect(canonicalAddress('/a?utm_source=x1', ['q'])).toBe('/a');
    expect(canonicalAddress('/a?z=1&q=2&utm=3&b=4', ['q', 'z', 'b'])).toBe('/a?b=4&q=2&z=1');
    expect(canonicalAddress('/a', ['q'])).toBe('/a');
    expect(canonicalAddress('/a?', ['q'])).toBe('/a');
  });

  it('keeps a name given twice with its values in their order, and one spelling of each value', () => {
    expect(canonicalAddress('/a?q=2&x=0&q=1', ['q'])).toBe('/a?q=2&q=1');
    expect(canonicalAddress('/a?q=a+b', ['q'])).toBe(canonicalAddress('/a?q=a%20b', ['q']));
    expect(canonicalAddress('/a?q=%C3%A9', ['q'])).toBe('/a?q=%C3%A9');
  });
});

describe('canonicalPageAddress', () => {
  it("keys a page on the route table's parameters, and a path with no page on none", () => {
    expect(canonicalPageAddress('/tool/chatgpt?utm_source=x1')).toBe('/tool/chatgpt');
    expect(canonicalPageAddress('/tool/chatgpt?os=linux&fbclid=1')).toBe('/tool/chatgpt?os=linux');
    expect(canonicalPageAddress('/?sort=pricing&search=ai&gclid=2')).toBe('/?search=ai&sort=pricing');
    expect(canonicalPageAddress('/blog?page=2&ref=x')).toBe('/blog?page=2');
    expect(canonicalPageAddress('/nowhere?x=1')).toBe('/nowhere');
    expect(isPageAddress('/tool/chatgpt?x=1')).toBe(true);
    expect(isPageAddress('/api/tools/query?search=a')).toBe(false);
  });

  it("has the home page read the directory's query, as GET /api/tools/query does", () => {
    expect([...ROUTE_TABLE.find((r) => r.path === '/')!.query].sort()).toEqual([...TOOL_QUERY_PARAMS].sort());
  });
});
