/** Reading a console request's JSON body: exactly the fields a call takes (an unknown one, e.g. a role, is a 400). */
import type { z } from 'zod';
import { issueLines } from '@aitools/contracts/zod';
import { HttpError } from '../middleware/errors';

export function readBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const r = schema.safeParse(body ?? {});
  if (r.success) return r.data;
  const fieldErrors: Record<string, string> = {};
  for (const issue of r.error.issues) {
    const field = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.join('.') || 'body';
    fieldErrors[field] ??= issue.code === 'unrecognized_keys' ? 'not a field of this call' : issue.message;
  }
  throw new HttpError(400, `Not accepted: ${issueLines(r.error).join('; ')}`, fieldErrors);
}
