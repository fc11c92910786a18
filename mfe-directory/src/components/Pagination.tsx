import { pageWindow } from '../lib/pagination';

interface Props {
  page: number;
  total: number;
  onPage: (page: number) => void;
}

/** Page 1, last, current ± 2 with ellipses; nothing at one page or fewer. */
export function Pagination({ page, total, onPage }: Props) {
  const items = pageWindow(page, total);
  if (!items.length) return null;
  return (
    <nav className="dir-pagination" aria-label="Pagination">
      <button type="button" className="btn btn--ghost btn--small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        ← Previous
      </button>
      <ul className="dir-pagination__pages">
        {items.map((item) =>
          typeof item === 'number' ? (
            <li key={item}>
              <button
                type="button"
                className={`dir-pagination__page${item === page ? ' is-current' : ''}`}
                aria-current={item === page ? 'page' : undefined}
                aria-label={`Page ${item}`}
                onClick={() => onPage(item)}
              >
                {item}
              </button>
            </li>
          ) : (
            <li key={item} className="dir-pagination__ellipsis" aria-hidden="true">
              …
            </li>
          ),
        )}
      </ul>
      <button type="button" className="btn btn--ghost btn--small" disabled={page >= total} onClick={() => onPage(page + 1)}>
        Next →
      </button>
    </nav>
  );
}
