/** "Showing X to Y of Z results" figures. */
export function pageRange(page: number, pageSize: number, count: number): { from: number; to: number } {
  if (count === 0) return { from: 0, to: 0 };
  return { from: (page - 1) * pageSize + 1, to: Math.min(page * pageSize, count) };
}
