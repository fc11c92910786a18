import { Pagination as SitePagination, scrollToTop, type PaginationProps } from '@aitools/platform';

// Changing page scrolls smoothly to the top (docs/product.md, Blog list); the link itself does the paging.

/** The blog's pagination (docs/product.md, Blog list): arrows disabled at the ends, at most 5 page buttons. `hrefFor(n)` is
 *  the address of page n with the view's other parameters, so paging works without code. */
export function Pagination(props: Pick<PaginationProps, 'page' | 'total' | 'hrefFor'>) {
  return (
    <SitePagination
      {...props}
      onPage={scrollToTop}
      window={{ siblings: 1, fixedCount: true }}
      label="Blog pagination"
      block="blog-pagination"
      previous={{ text: '‹', label: 'Previous page' }}
      next={{ text: '›', label: 'Next page' }}
    />
  );
}
