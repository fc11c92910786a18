import type { MouseEvent } from 'react';
import { Link } from 'react-router-dom';
import { pageWindow } from '../lib/pagination';
import { plainClick } from '../lib/plainClick';

interface Props {
  page: number;
  total: number;
  /** The address of a page: every control is a real link (works before and without JavaScript). */
  hrefFor: (page: number) => string;
  /** A plain click is handled in place (page memory, smooth scroll); others follow the link. */
  onPage: (page: number) => void;
}

/** Page 1, last, current ± 2 with ellipses; nothing at one page or fewer. */
export function Pagination({ page, total, hrefFor, onPage }: Props) {
  const items = pageWindow(page, total);
  if (!items.length) return null;
  const link = (p: number) => ({
    to: hrefFor(p),
    onClick: (e: MouseEvent) => {
      if (!plainClick(e)) return;
      e.preventDefault();
      onPage(p);
    },
  });
  const step = (p: number, label: string, enabled: boolean) =>
    enabled ? (
      <Link className="btn btn--ghost btn--small" {...link(p)}>
        {label}
      </Link>
    ) : (
      <span className="btn btn--ghost btn--small is-disabled" aria-disabled="true">
        {label}
      </span>
    );
  return (
    <nav className="dir-pagination" aria-label="Pagination">
      {step(page - 1, '← Previous', page > 1)}
      <ul className="dir-pagination__pages">
        {items.map((item) =>
          typeof item === 'number' ? (
            <li key={item}>
              <Link
                className={`dir-pagination__page${item === page ? ' is-current' : ''}`}
                aria-current={item === page ? 'page' : undefined}
                aria-label={`Page ${item}`}
                {...link(item)}
              >
                {item}
              </Link>
            </li>
          ) : (
            <li key={item} className="dir-pagination__ellipsis" aria-hidden="true">
              …
            </li>
          ),
        )}
      </ul>
      {step(page + 1, 'Next →', page < total)}
    </nav>
  );
}
