/** The one table `pnpm bench` prints, and the same rows as JSON for tools. */

/** The sites a figure can come from: this build, the baseline commit (issue 10), a monolith build (issue 12). */
export type Column = 'current' | 'baseline' | 'monolith';

/** `text` is what the table prints; `value` the raw figure(s) for the JSON file. null: could not be measured. */
export interface Figure {
  text: string;
  value?: unknown;
}
export type Cell = Figure | null;

export interface Row {
  section: string;
  what: string;
  /** Only the columns that apply to the row; a missing column prints empty, a null cell prints "n/a". */
  cells: Partial<Record<Column, Cell>>;
}

export const fig = (text: string, value?: unknown): Figure => ({ text, value });
export const kB = (bytes: number) =>
  `${(bytes / 1000).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} kB`;
export const msText = (n: number) => `${Math.round(n).toLocaleString('en-US')} ms`;
export const whole = (n: number) => Math.round(n).toLocaleString('en-US');

export function formatTable(rows: Row[], headers: Record<Column, string>): string {
  const columns = (Object.keys(headers) as Column[]).filter((c) => rows.some((r) => c in r.cells));
  const head = ['section', 'what', ...columns.map((c) => headers[c])];
  const body = rows.map((r) => [
    r.section,
    r.what,
    ...columns.map((c) => (c in r.cells ? (r.cells[c]?.text ?? 'n/a') : '')),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((line) => line[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
