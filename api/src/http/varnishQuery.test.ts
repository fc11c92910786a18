import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathOf, ROUTE_TABLE } from '@aitools/platform/routes';
import { REPO_ROOT } from '../paths';

/** site.vcl's query_keep, as (path pattern, parameters kept) in its order: a rule that drops the query keeps none. */
function varnishRules(): { path: RegExp; keeps: string[] }[] {
  const vcl = readFileSync(join(REPO_ROOT, 'deploy', 'varnish', 'site.vcl'), 'utf8');
  const sub = /sub query_keep \{([\s\S]*?)\n\}/.exec(vcl)![1]!;
  const rules = [...sub.matchAll(/if \(req\.url ~ "(\(\?i\))?([^"]+)"\) \{\n\s+set req\.url = ([^\n]+)/g)];
  return rules.map(([, anyCase, path, action]) => ({
    path: new RegExp(path!, anyCase ? 'i' : ''),
    keeps: /\(\?!\(\?:([\w|]+)\)/.exec(action!)?.[1]!.split('|') ?? [],
  }));
}

describe("the shared cache's query rules (deploy/varnish/site.vcl)", () => {
  it('keep, for each page of the route table, the parameters the page reads and no other', () => {
    const rules = varnishRules();
    expect(rules.length).toBeGreaterThan(ROUTE_TABLE.length / 2);
    for (const route of ROUTE_TABLE) {
      const path = pathOf(route.path, { slug: 'some-slug' });
      for (const address of [`${path}?x=1`, `${path.replace(/\/?$/, '/')}?x=1`]) {
        const rule = rules.find((r) => r.path.test(address));
        expect(rule, `${address} has a rule`).toBeDefined();
        expect([...rule!.keeps].sort(), address).toEqual([...route.query].sort());
      }
    }
  });
});
