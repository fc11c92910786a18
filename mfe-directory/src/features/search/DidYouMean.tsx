import { Link } from 'react-router-dom';

/** Links for a search that found nothing: the closest tool names and tags that would find something
 *  (githb -> GitHub, chosen by the query: contracts/src/didYouMean.ts). Real links to /?search=…, so they work
 *  before and without script. */
export function DidYouMean({ suggestions }: { suggestions: string[] }) {
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
