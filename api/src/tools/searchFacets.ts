/** The type and pricing filters as conditions on the search index's facets (docs/product.md, Directory search): one
 *  reading for the words' ranking (SQL) and the meaning's guess (SQL on Postgres, the held codes on SQLite). */
import type { ToolQuery } from '@aitools/contracts/toolQuery';

/** The filters that narrow the ranked tools. */
export type IndexFilters = Pick<ToolQuery, 'category' | 'type' | 'pricing'>;

/** A facet flag of the index's rows (a column of tool_facets on SQLite, of tool_search on Postgres). */
export type Facet = 'mcp' | 'free' | 'paid' | 'checked' | 'healthy';

export interface FacetCondition {
  flag: Facet;
  is: boolean;
}

/** Each flag the filters ask for, and the value it must have. */
export function facetConditions({ type, pricing }: IndexFilters): FacetCondition[] {
  return [type, pricing].flatMap((t): FacetCondition[] =>
    t === 'ai-tool'
      ? [{ flag: 'mcp', is: false }]
      : t === 'mcp-servers'
        ? [{ flag: 'mcp', is: true }]
        : t && t !== 'all'
          ? [{ flag: t as Facet, is: true }]
          : [],
  );
}

/** The conditions as SQL on the flag columns (names from the code, never typed). */
export function facetFlags(filters: IndexFilters): string {
  return (
    facetConditions(filters)
      .map((c) => (c.is ? c.flag : `NOT ${c.flag}`))
      .join(' AND ') || 'true'
  );
}
