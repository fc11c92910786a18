import type { ChunkLoadError } from './ChunkLoadError';

interface Props {
  error: ChunkLoadError;
  /** How many times "Try again" was pressed; after a failed retry the screen also offers a full reload. */
  attempt: number;
  busy?: boolean;
  onRetry: () => void;
}

/** A remote that failed to load: says so, keeps the rest of the site working, and offers to load it again in place. */
export function RemoteFailure({ error, attempt, busy, onRetry }: Props) {
  return (
    <section className="remote-error" role="alert" aria-labelledby="remote-error-title">
      <h1 id="remote-error-title">This section is temporarily unavailable</h1>
      <p>
        We couldn't load this part of the site. The rest of the site keeps working; check your connection and try again.
      </p>
      {attempt > 0 && (
        <p className="remote-error__retry-failed">
          Trying again did not help. Reloading the page loads the whole site afresh.
        </p>
      )}
      <p className="remote-error__detail">
        <code>{error.message}</code> ({error.type})
      </p>
      <button type="button" className="btn btn--primary" disabled={busy} onClick={onRetry}>
        Try again
      </button>
      {attempt > 0 && (
        <button type="button" className="btn" onClick={() => window.location.reload()}>
          Reload page
        </button>
      )}
    </section>
  );
}
