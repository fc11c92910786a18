import { pageWindow } from '../lib/listing';

export function Pagination({ page, pages, onChange }: { page: number; pages: number; onChange: (page: number) => void }) {
  return (
    <nav className="blog-pagination" aria-label="Blog pagination">
      <button type="button" className="blog-pagination__arrow" aria-label="Previous page" disabled={page <= 1} onClick={() => onChange(page - 1)}>
        ‹
      </button>
      {pageWindow(page, pages).map((item) =>
        typeof item === 'number' ? (
          <button
            key={item}
            type="button"
            className={`blog-pagination__page${item === page ? ' blog-pagination__page--current' : ''}`}
            aria-label={`Page ${item}`}
            aria-current={item === page ? 'page' : undefined}
            onClick={() => item !== page && onChange(item)}
          >
            {item}
          </button>
        ) : (
          <span key={item} className="blog-pagination__gap" aria-hidden="true">
            …
          </span>
        ),
      )}
      <button type="button" className="blog-pagination__arrow" aria-label="Next page" disabled={page >= pages} onClick={() => onChange(page + 1)}>
        ›
      </button>
    </nav>
  );
}
