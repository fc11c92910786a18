/** The page-window rule of every pagination control (SPEC sections 2 and 9), and the count of pages. */

export type PageItem = number | 'ellipsis-start' | 'ellipsis-end';

export interface PageWindow {
  /** Pages shown on each side of the current one. */
  siblings: number;
  /** Keep the number of page buttons constant: near an end the run of pages slides instead of shrinking. */
  fixedCount?: boolean;
}

/**
 * The page buttons: page 1, the last page, and a run of pages around the current one, with an ellipsis wherever
 * pages are skipped; nothing at one page or fewer. The directory shows current ± 2 (`{ siblings: 2 }`); the blog
 * shows at most 5 buttons (`{ siblings: 1, fixedCount: true }`: 1-4 near the start, the last 4 near the end).
 */
export function pageWindow(current: number, total: number, { siblings, fixedCount = false }: PageWindow): PageItem[] {
  if (total <= 1) return [];
  const width = 2 * siblings;
  const from = fixedCount
    ? Math.max(2, Math.min(current - siblings, total - 1 - width))
    : Math.max(2, current - siblings);
  const to = Math.min(total - 1, fixedCount ? from + width : current + siblings);
  const pages: PageItem[] = [1];
  if (from > 2) pages.push('ellipsis-start');
  for (let p = from; p <= to; p++) pages.push(p);
  if (to < total - 1) pages.push('ellipsis-end');
  pages.push(total);
  return pages;
}
