import { useEffect, useState } from 'react';

/** Copies `text` to the clipboard. Rendered only once script runs (a button that cannot work is never shown); the
 *  result is announced to screen readers. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [ready, setReady] = useState(false);
  const [status, setStatus] = useState('');
  useEffect(() => setReady(typeof navigator !== 'undefined' && !!navigator.clipboard), []);
  useEffect(() => {
    if (!status) return;
    const t = setTimeout(() => setStatus(''), 2000);
    return () => clearTimeout(t);
  }, [status]);
  if (!ready) return null;
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => setStatus('Copied!'),
      () => setStatus('Copy failed: select the text and copy it'),
    );
  return (
    <span className="mcp-copy">
      <button type="button" className="btn btn--ghost btn--small" aria-label={label} onClick={copy}>
        Copy
      </button>
      <span role="status" aria-live="polite" className="mcp-copy__status">
        {status}
      </span>
    </span>
  );
}
