/**
 * How the release commands end on an error: a refusal (the command's own error class: an unknown remote, a release
 * that is not there) is printed as "Error: …" with exit code 1; anything else is a fault and is thrown with its stack.
 */
export function reportRefusal(err: unknown, Refusal: abstract new (...args: never[]) => Error): void {
  if (!(err instanceof Refusal)) throw err;
  console.error(`Error: ${err.message}`);
  process.exitCode = 1;
}
