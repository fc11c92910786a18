import { useState } from 'react';

const VISIBLE_TAGS = 8;

/** The first 8 tags; "Show N more tags" / "Show less" only when there are more. */
export function TagList({ tags }: { tags: string[] }) {
  const [expanded, setExpanded] = useState(false);
  if (!tags.length) return null;
  const hidden = tags.length - VISIBLE_TAGS;
  const shown = expanded ? tags : tags.slice(0, VISIBLE_TAGS);
  return (
    <div className="dir-taglist">
      <ul aria-label="Tags" id="dir-taglist">
        {shown.map((t) => (
          <li key={t} className="tag">
            {t}
          </li>
        ))}
      </ul>
      {hidden > 0 && (
        <button
          type="button"
          className="dir-link-btn"
          aria-expanded={expanded}
          aria-controls="dir-taglist"
          onClick={() => setExpanded((v) => !v)}
        >
          {expanded ? 'Show less' : `Show ${hidden} more tags`}
        </button>
      )}
    </div>
  );
}
