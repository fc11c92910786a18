/**
 * The field rules of every write path (the public forms, `pnpm registry import`, the console and the operators'
 * CLIs, analytics events): one zod builder per kind of field, each refusal naming the field and the reason.
 */
import { z } from './zod';
import { findForbiddenCharacter, forbiddenReason, hasVisibleCharacter, normalizeLineBreaks } from './text';
import { dateTimeSchema } from './dateTime';

export interface TextRules {
  /** The field's name in messages ("Name"). */
  label: string;
  max: number;
  /** Tab and line breaks allowed (CR LF and CR stored as LF). */
  multiline?: boolean;
}

/**
 * Text, in order: line breaks unified, NFC, trimmed; then no control, bidi, invisible or lone-surrogate character,
 * and at most `max` long (UTF-16 units, as an input's maxLength counts; zod's .max counts code points).
 */
export function textField({ label, max, multiline = false }: TextRules, typeMessage = `${label} must be text`) {
  return z
    .string({ error: typeMessage })
    .overwrite((v) => (multiline ? normalizeLineBreaks(v) : v))
    .normalize('NFC')
    .trim()
    .check((ctx) => {
      const found = findForbiddenCharacter(ctx.value, multiline);
      if (found) ctx.issues.push({ code: 'custom', message: `${label} ${forbiddenReason(found)}`, input: ctx.value });
    })
    .refine((v) => v.length <= max, `${label} must be ${max} characters or less`);
}

/** A text field that must hold something a reader can see (not empty, not only a blank braille cell or a lone
 *  accent): `message` otherwise. */
export function requireVisible(field: z.ZodString, message: string) {
  return field.min(1, message).refine(hasVisibleCharacter, message);
}

/** A required text field: "{label} is required" when it holds nothing a reader can see. */
export function requiredTextField(label: string, max: number, multiline = false) {
  return requireVisible(textField({ label, max, multiline }), `${label} is required`);
}

/** Why an operator made a change (a rejected submission, a release rolled back), kept in the audit trail. */
export function reasonField() {
  return requireVisible(textField({ label: 'Reason', max: 500, multiline: true }), 'a reason');
}

const WEB_URL_SHAPE = /^https?:\/\/\S+$/i;

/** A path on the site itself: one slash, then no slash or backslash (browsers read `//host` and `/\host` as another
 *  site), and no space. */
export function isSitePath(value: string): boolean {
  return /^\/(?![/\\])\S*$/.test(value);
}

/** An address a visitor's browser may open: http: or https: only (never javascript:, data:, file: ...). */
export function isWebUrl(value: string): boolean {
  if (!WEB_URL_SHAPE.test(value)) return false;
  try {
    const { protocol, hostname } = new URL(value);
    return (protocol === 'https:' || protocol === 'http:') && hostname !== '';
  } catch {
    return false;
  }
}

export const WEB_URL_MESSAGE = 'must be a web address starting with https:// or http://';

/** A web address (see isWebUrl) under the text rules. */
export function webUrlField({ label, max }: { label: string; max: number }, message = `${label} ${WEB_URL_MESSAGE}`) {
  return textField({ label, max }).refine(isWebUrl, message);
}

export const isRealDateTime = (value: string): boolean => dateTimeSchema('not a date-time').safeParse(value).success;
