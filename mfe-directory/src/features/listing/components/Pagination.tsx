import { Pagination as SitePagination } from '@aitools/platform';
import { plainClick } from '../../../shared/plainClick';

interface Props {
  page: number;
  total: number;
  /** The address of a page: every control is a real link (works before and without JavaScript). */
  hrefFor: (page: number) => string;
  /** A plain click is handled in place (page memory, smooth scroll); others follow the link. */
  onPage: (page: number) => void;
}

/** The directory's pagination (docs/product.md, Directory): page 1, last, current ± 2 with ellipses; nothing at one page or fewer. */
export function Pagination({ page, total, hrefFor, onPage }: Props) {
  return (
    <SitePagination
      page={page}
      total={total}
      hrefFor={hrefFor}
      onPage={(p, e) => {
        if (!plainClick(e)) return;
        e.preventDefault();
        onPage(p);
      }}
      window={{ siblings: 2 }}
      label="Pagination"
      block="dir-pagination"
      previous={{ text: '← Previous' }}
      next={{ text: 'Next →' }}
      stepClassName="btn btn--ghost btn--small"
    />
  );
}
