const VISIBLE_TAGS = 8;

/**
 * The first 8 tags; "Show N more tags" / "Show less" only when there are more. The toggle is the browser's own
 * disclosure (`<details>`), so it works before and without the page's code and has nothing to hydrate.
 */
export function TagList({ tags }: { tags: string[] }) {
  if (!tags.length) return null;
  const more = tags.slice(VISIBLE_TAGS);
  const list = (names: string[], label: string) => (
    <ul aria-label={label}>
      {names.map((t) => (
        <li key={t} className="tag">
          {t}
        </li>
      ))}
    </ul>
  );
  return (
    <div className="dir-taglist">
      {list(tags.slice(0, VISIBLE_TAGS), 'Tags')}
      {more.length > 0 && (
        <details className="dir-taglist__more">
          <summary className="dir-link-btn">
            <span className="dir-taglist__show">Show {more.length} more tags</span>
            <span className="dir-taglist__less">Show less</span>
          </summary>
          {list(more, 'More tags')}
        </details>
      )}
    </div>
  );
}
