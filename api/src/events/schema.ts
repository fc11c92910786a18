import { z } from 'zod';
import { analyticsEventSchema } from '@aitools/contracts/tools';
import { findForbiddenCharacter, forbiddenReason } from '@aitools/contracts/text';

/** Field limits of an event's data: a few flat, named values (tool name, slug, category, page URL). */
const EVENT_DATA_MAX_KEYS = 16;
const EVENT_KEY_MAX_LENGTH = 40;
const EVENT_VALUE_MAX_LENGTH = 1024;
const EVENT_DATA_MAX_JSON = 2000;

const value = z.union(
  [
    z
      .string()
      .normalize('NFC')
      .max(EVENT_VALUE_MAX_LENGTH, `values must be ${EVENT_VALUE_MAX_LENGTH} characters or less`)
      .check((ctx) => {
        const found = findForbiddenCharacter(ctx.value);
        if (found) ctx.issues.push({ code: 'custom', message: `values ${forbiddenReason(found)}`, input: ctx.value });
      }),
    z.number().finite(),
    z.boolean(),
    z.null(),
  ],
  {
    // The union's own message says only "Invalid input": a text gives its rule's reason, anything else what it may be.
    error: (issue) =>
      typeof issue.input === 'string'
        ? (issue as { errors?: { message: string }[][] }).errors?.[0]?.[0]?.message
        : 'values must be text, a number, true, false or null',
  },
);

/** Keys start with a letter, which also keeps out constructor, prototype and the like. */
const key = z
  .string()
  .regex(new RegExp(`^[A-Za-z][A-Za-z0-9_]{0,${EVENT_KEY_MAX_LENGTH - 1}}$`), 'keys must be short names');

/** JSON.parse keeps a "__proto__" key as the object's own, and zod's record leaves it out without a word: so the key
 *  is refused before the record reads the object, as every other key that is not a short name. */
const noProtoKey = z.custom<unknown>(
  (d) => !(d !== null && typeof d === 'object' && Object.hasOwn(d, '__proto__')),
  'keys must be short names',
);

/** What POST /api/events stores: the contract's event, with its data bounded in shape and size. */
export const storedEventSchema = analyticsEventSchema.extend({
  data: noProtoKey.pipe(
    z
      .record(key, value)
      .refine(
        (d) => Object.keys(d).length <= EVENT_DATA_MAX_KEYS,
        `data must have at most ${EVENT_DATA_MAX_KEYS} fields`,
      )
      .refine((d) => JSON.stringify(d).length <= EVENT_DATA_MAX_JSON, 'data is too large'),
  ),
});
export type StoredEvent = z.output<typeof storedEventSchema>;
