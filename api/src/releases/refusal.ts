import { REMOTE_NAMES } from '../paths';

/**
 * How the release commands end on an error: a refusal (the command's own error class: an unknown remote, a release
 * that is not there) is printed as "Error: …" with exit code 1; anything else is a fault and is thrown with its stack.
 */
export function reportRefusal(err: unknown, Refusal: abstract new (...args: never[]) => Error): void {
  if (!(err instanceof Refusal)) throw err;
  console.error(`Error: ${err.message}`);
  process.exitCode = 1;
}

/** A refusal, with the HTTP status the release API answers it with (422: the release fails a check). */
export class ReleaseError extends Error {
  constructor(
    message: string,
    readonly status = 422,
  ) {
    super(message);
  }
}

/** Refuses a name that is not one of the site's remotes (404). */
export function assertRemote(remote: string): void {
  if (!(REMOTE_NAMES as readonly string[]).includes(remote)) {
    throw new ReleaseError(`Unknown remote "${remote}". Known remotes: ${REMOTE_NAMES.join(', ')}.`, 404);
  }
}
