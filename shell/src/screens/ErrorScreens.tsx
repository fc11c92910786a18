import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { Component, type ReactNode } from 'react';

/** Global fallback: a plain link, not the router, since the failure may be the router itself. */
export function GlobalErrorScreen() {
  return (
    <main className="screen-center" role="alert">
      <h1>Something went wrong</h1>
      <a className="btn btn--primary" href="/">
        Go to Homepage
      </a>
    </main>
  );
}

/** What the router fallback names: an error answer's status text ("405 Method Not Allowed"), never an error's own
 *  message (a library's words, a file path or what a client sent). */
export const GENERIC_ERROR_TEXT = 'Something went wrong. Please try again, or go to the homepage.';

export function errorText(error: unknown): string {
  if (isRouteErrorResponse(error)) return [error.status, error.statusText].filter(Boolean).join(' ');
  return GENERIC_ERROR_TEXT;
}

/** Router fallback: an error while rendering a route. */
export function RouterErrorScreen({ error }: { error: unknown }) {
  return (
    <main className="screen-center" role="alert">
      <h1>Unexpected Application Error!</h1>
      <p className="screen-center__error">{errorText(error)}</p>
      <a className="btn btn--primary" href="/">
        Go to Homepage
      </a>
    </main>
  );
}

interface BoundaryProps {
  fallback: (error: unknown) => ReactNode;
  /** Changing this (e.g. the location) clears a caught error. */
  resetKey?: string;
  children: ReactNode;
}

export class ErrorBoundary extends Component<BoundaryProps, { error: unknown; key?: string }> {
  override state: { error: unknown; key?: string } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('Unknown error') };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { error: unknown; key?: string }) {
    if (props.resetKey !== state.key) return { error: null, key: props.resetKey };
    return null;
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
  }

  override render() {
    return this.state.error ? this.props.fallback(this.state.error) : this.props.children;
  }
}

/** The root route's error element: a failure outside any remote route (the frame itself). */
export function RootError() {
  return <RouterErrorScreen error={useRouteError()} />;
}
