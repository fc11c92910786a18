export type PageItem = number | 'ellipsis-start' | 'ellipsis-end';

/** Page 1, the last page and current ± 2, with an ellipsis wherever pages are skipped. */
export function pageWindow(current: number, total: number): PageItem[] {
  if (total <= 1) return [];
  const pages: PageItem[] = [1];
  const from = Math.max(2, current - 2);
  const to = Math.min(total - 1, current + 2);
  if (from > 2) pages.push('ellipsis-start');
  for (let p = from; p <= to; p++) pages.push(p);
  if (to < total - 1) pages.push('ellipsis-end');
  pages.push(total);
  return pages;
}

/** "Showing X to Y of Z results" figures. */
export function pageRange(page: number, pageSize: number, count: number): { from: number; to: number } {
  if (count === 0) return { from: 0, to: 0 };
  return { from: (page - 1) * pageSize + 1, to: Math.min(page * pageSize, count) };
}
