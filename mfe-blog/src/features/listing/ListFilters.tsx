import type { RefObject } from 'react';
import { Link } from 'react-router-dom';
import { ALL, BLOG_CATEGORIES, LIST_PATH, listHref } from './listing';

interface ListFiltersProps {
  /** The search text the list is filtered by (what the box holds once the code runs). */
  search: string;
  /** The address's search text: the box's initial value in the server's HTML. */
  initialSearch: string;
  category: string;
  onSearch: (text: string) => void;
  inputRef: RefObject<HTMLInputElement | null>;
}

/**
 * The search box and category chips as real HTML: the box is a GET form to /blog (Enter reloads the list filtered
 * by the server), the chips are links to the view they stand for. With code, the box filters per keystroke. The box
 * is uncontrolled, so what a visitor types before the code arrives stays in it (see BlogList for how it is applied).
 */
export function ListFilters({ search, initialSearch, category, onSearch, inputRef }: ListFiltersProps) {
  return (
    <section className="blog-filters" aria-label="Find posts">
      <form method="get" action={LIST_PATH} role="search" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor="blog-search" className="visually-hidden">
          Search blog posts
        </label>
        <input
          ref={inputRef}
          id="blog-search"
          name="search"
          className="blog-filters__search"
          type="search"
          placeholder="Search posts..."
          defaultValue={initialSearch}
          onChange={(e) => onSearch(e.target.value)}
        />
        {/* A search starts again from page 1 of the chosen category. */}
        {category !== ALL && <input type="hidden" name="category" value={category} />}
      </form>
      <div className="blog-chips" role="group" aria-label="Categories">
        {BLOG_CATEGORIES.map((c) => (
          // The active chip links to the list without it: clicking it again resets to All.
          <Link
            key={c}
            to={listHref({ search, category: c === category ? ALL : c })}
            className="chip blog-chip"
            aria-current={c === category ? 'true' : undefined}
          >
            {c}
          </Link>
        ))}
      </div>
      {category !== ALL && <p className="blog-chips__hint">Click "{category}" again to clear filter</p>}
    </section>
  );
}
