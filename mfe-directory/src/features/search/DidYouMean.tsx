import { Link } from 'react-router-dom';
import type { ToolSummary } from '@aitools/api/contracts/tools';
import { didYouMean } from '@aitools/api/contracts/didYouMean';

/** Links for a search that found nothing: the closest tool names and tags that would find something
 *  (githb -> GitHub). Real links to /?search=…, so they work before and without script. */
export function DidYouMean({ query, tools }: { query: string; tools: ToolSummary[] }) {
  const suggestions = didYouMean(query, tools);
  if (!suggestions.length) return null;
  return (
    <p className="dir-did-you-mean">
      Did you mean{' '}
      {suggestions.map((s, i) => (
        <span key={s}>
          {i > 0 && (i === suggestions.length - 1 ? ' or ' : ', ')}
          <Link to={`/?search=${encodeURIComponent(s)}`}>{s}</Link>
        </span>
      ))}
      ?
    </p>
  );
}
