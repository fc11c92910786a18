import type { MouseEvent } from 'react';
import { Link } from 'react-router-dom';
import { pageWindow, type PageWindow } from './pagination';

export interface PaginationProps {
  page: number;
  total: number;
  /** The address of a page: every control is a real link (works before and without JavaScript). */
  hrefFor: (page: number) => string;
  /** Called on a click of any page link, before the link is followed (it may prevent that and page in place). */
  onPage?: (page: number, event: MouseEvent) => void;
  window: PageWindow;
  /** The navigation's accessible name. */
  label: string;
  /** Class-name block of the remote's stylesheet: `<block>`, `<block>__step`, `__pages`, `__page`, `__gap`. */
  block: string;
  /** Previous and next: visible text, and an accessible name when the text is a symbol. */
  previous: { text: string; label?: string };
  next: { text: string; label?: string };
  /** Extra classes of the previous/next controls (e.g. the site's button classes). */
  stepClassName?: string;
}

/** Previous, the page window and next; nothing at one page or fewer. At the ends previous/next have no address. */
export function Pagination({
  page,
  total,
  hrefFor,
  onPage,
  window,
  label,
  block,
  previous,
  next,
  stepClassName,
}: PaginationProps) {
  const items = pageWindow(page, total, window);
  if (!items.length) return null;
  const link = (p: number) => ({ to: hrefFor(p), onClick: onPage && ((e: MouseEvent) => onPage(p, e)) });
  const stepClass = `${block}__step${stepClassName ? ` ${stepClassName}` : ''}`;
  const step = (p: number, { text, label: name }: { text: string; label?: string }, enabled: boolean) =>
    enabled ? (
      <Link className={stepClass} aria-label={name} {...link(p)}>
        {text}
      </Link>
    ) : (
      <span className={`${stepClass} is-disabled`} role="link" aria-disabled="true" aria-label={name}>
        {text}
      </span>
    );
  return (
    <nav className={block} aria-label={label}>
      {step(page - 1, previous, page > 1)}
      <ul className={`${block}__pages`}>
        {items.map((item) =>
          typeof item === 'number' ? (
            <li key={item}>
              <Link
                className={`${block}__page${item === page ? ' is-current' : ''}`}
                aria-current={item === page ? 'page' : undefined}
                aria-label={`Page ${item}`}
                {...link(item)}
              >
                {item}
              </Link>
            </li>
          ) : (
            <li key={item} className={`${block}__gap`} aria-hidden="true">
              …
            </li>
          ),
        )}
      </ul>
      {step(page + 1, next, page < total)}
    </nav>
  );
}
