import { Component, type ReactNode } from 'react';
import { isChunkLoadError, type ChunkLoadError } from './ChunkLoadError';

interface Props {
  onRetry: () => void;
  /** How many times "Try again" was pressed; after a failed retry the boundary also offers a full reload. */
  attempt?: number;
  children: ReactNode;
}

/** Catches a remote that failed to load and offers to load it again in place; other errors go on up. */
export class RemoteBoundary extends Component<Props, { error: ChunkLoadError | null; other: unknown }> {
  override state = { error: null as ChunkLoadError | null, other: null as unknown };

  static getDerivedStateFromError(error: unknown) {
    return isChunkLoadError(error) ? { error, other: null } : { error: null, other: error ?? new Error('Unknown error') };
  }

  override render() {
    if (this.state.other) throw this.state.other;
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <section className="remote-error" role="alert" aria-labelledby="remote-error-title">
        <h1 id="remote-error-title">This section is temporarily unavailable</h1>
        <p>
          We couldn't load this part of the site. The rest of the site keeps working; check your connection and try
          again.
        </p>
        {(this.props.attempt ?? 0) > 0 && (
          <p className="remote-error__retry-failed">
            Trying again did not help. Reloading the page loads the whole site afresh.
          </p>
        )}
        <p className="remote-error__detail">
          <code>{error.message}</code> ({error.type})
        </p>
        <button
          type="button"
          className="btn btn--primary"
          onClick={() => {
            this.setState({ error: null, other: null });
            this.props.onRetry();
          }}
        >
          Try again
        </button>
        {(this.props.attempt ?? 0) > 0 && (
          <button type="button" className="btn" onClick={() => window.location.reload()}>
            Reload page
          </button>
        )}
      </section>
    );
  }
}
