/** The description checks on their labelled set (docs/mcp.md, "Description checks"): recall, precision and each
 *  rule's figures, computed in process (no site needed). */
import { measureSet } from '../../api/src/checks/labelledSet';
import { fig, type Row } from './table';

const ratio = (n: number, d: number) => (d ? `${(n / d).toFixed(2)} (${n}/${d})` : 'n/a');

export function checksRows(): Row[] {
  const f = measureSet();
  const rows: Row[] = [
    {
      section: 'checks',
      what: `recall: poisoned texts found (${f.poisoned} in tests/checks/poisoned.json)`,
      cells: { current: fig(ratio(f.poisonedFound, f.poisoned), f.recall) },
    },
    {
      section: 'checks',
      what: `precision: found texts that are poisoned (${f.benign} real texts as the benign side)`,
      cells: {
        current: fig(
          `${ratio(f.poisonedFound, f.poisonedFound + f.benignFlagged)} · ${f.benignFlagged} real texts flagged`,
          f.precision,
        ),
      },
    },
  ];
  for (const r of f.rules)
    rows.push({
      section: 'checks',
      what: `rule ${r.rule}: labelled texts it finds · real texts it flags`,
      cells: { current: fig(`${ratio(r.found, r.labelled)} · ${r.benignHits}`, r) },
    });
  return rows;
}
