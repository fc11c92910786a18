/** The console's data table: scrolls sideways when wider than the screen, a caption for screen readers, one header
 *  cell a column; the rows are the caller's. */
import type { ReactNode } from 'react';

/** The header of a column of buttons: read out, not shown. */
export const ACTIONS = <span className="visually-hidden">Actions</span>;

export function Table({
  caption,
  columns,
  children,
}: {
  caption?: string;
  columns: readonly ReactNode[];
  children: ReactNode;
}) {
  return (
    <div className="table-wrap">
      <table>
        {caption && <caption className="visually-hidden">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column, n) => (
              <th scope="col" key={n}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
