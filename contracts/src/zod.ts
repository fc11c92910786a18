/**
 * The zod of the form contracts, the only contracts that parse in the browser. Jitless: zod 4 otherwise probes
 * `new Function` on first parse, which the site's CSP (no 'unsafe-eval') reports as a violation. The forms
 * contract is bundled into the remotes, so every browser bundle that validates a form runs this line first.
 */
import { z } from 'zod';

z.config({ jitless: true });

export { z };

/** The site's one reading of a failed parse, for forms and API answers alike (browser and server): the first
 *  message per top-level field (per entry for the fields named in `lists`); problems with the value as a whole go
 *  under `root`. */
export function fieldErrorsOf(error: z.ZodError, root: string, lists: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { path, message, code } of error.issues) {
    // A list in `lists` answers per entry and part ("faqs.2.answer"), so a form can show the reason beside it.
    const key = !path.length ? root : lists.includes(String(path[0])) ? path.join('.') : String(path[0]);
    // A value that is not an object of fields at all (a list, a string) gets our words, not the library's.
    out[key] ??= !path.length && code === 'invalid_type' ? NOT_AN_OBJECT : message;
  }
  return out;
}

/** The reason given when what was sent is not one object of named fields. */
export const NOT_AN_OBJECT = 'Expected one JSON object of named fields';

/** The first problems of a failed parse as "path: message" lines, for an operator reading a nested document; each
 *  line cut at LINE_MAX characters, since a path names what was sent. */
export function issueLines(error: z.ZodError, max = 5): string[] {
  return error.issues.slice(0, max).map((i) => {
    const line = `${i.path.length ? i.path.join('.') : '(document)'}: ${i.message}`;
    return line.length > LINE_MAX ? `${line.slice(0, LINE_MAX)}…` : line;
  });
}
const LINE_MAX = 300;
