/** Rows of many servers by their tool's slug, each list in the rows' order (what the batched reads of a page of
 *  servers hand out to each). */
export function bySlug<T extends { tool_slug: string }>(rows: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const list = out.get(row.tool_slug);
    if (list) list.push(row);
    else out.set(row.tool_slug, [row]);
  }
  return out;
}
