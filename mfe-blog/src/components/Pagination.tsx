import { Link } from 'react-router-dom';
import { pageWindow } from '../lib/listing';

/** Changing page scrolls smoothly to the top (SPEC section 2); the link itself does the paging. */
const scrollToTop = () => window.scrollTo({ top: 0, behavior: 'smooth' });

/** Previous/next: a link, or at the ends a disabled one (no address, so nothing to follow with or without code). */
function Arrow({ label, symbol, to }: { label: string; symbol: string; to: string | null }) {
  if (!to) {
    return (
      <span role="link" aria-disabled="true" aria-label={label} className="blog-pagination__link blog-pagination__link--disabled">
        {symbol}
      </span>
    );
  }
  return (
    <Link to={to} aria-label={label} className="blog-pagination__link" onClick={scrollToTop}>
      {symbol}
    </Link>
  );
}

/** Page links (`hrefOf(n)` is the address of page n with the view's other parameters), so paging works without code. */
export function Pagination({ page, pages, hrefOf }: { page: number; pages: number; hrefOf: (page: number) => string }) {
  return (
    <nav className="blog-pagination" aria-label="Blog pagination">
      <Arrow label="Previous page" symbol="‹" to={page > 1 ? hrefOf(page - 1) : null} />
      {pageWindow(page, pages).map((item) =>
        typeof item === 'number' ? (
          <Link
            key={item}
            to={hrefOf(item)}
            className={`blog-pagination__link${item === page ? ' blog-pagination__page--current' : ''}`}
            aria-label={`Page ${item}`}
            aria-current={item === page ? 'page' : undefined}
            onClick={scrollToTop}
          >
            {item}
          </Link>
        ) : (
          <span key={item} className="blog-pagination__gap" aria-hidden="true">
            …
          </span>
        ),
      )}
      <Arrow label="Next page" symbol="›" to={page < pages ? hrefOf(page + 1) : null} />
    </nav>
  );
}
