import { data, redirect, type ActionFunctionArgs } from 'react-router-dom';
import { writeJson } from '@aitools/platform';
import {
  EARLY_ACCESS_SOURCE,
  EARLY_ACCESS_TYPE,
  earlyAccessSchema,
  validateForm,
  type EarlyAccessRecord,
} from '@aitools/contracts/forms';
import { failedStatus, readPost, refusedPost, sendForm, type FormActionData } from '../../shared/formRoute';

export const EARLY_ACCESS_STORAGE_KEY = 'earlyAccessSignup';
export const EARLY_ACCESS_FAILED = "We couldn't save your email. Please try again.";

export const ADVERTISE_PATH = '/advertise';
/** Where a signup lands ("You're all set!"): a refresh of it signs up nothing again. */
const ADVERTISE_SUBSCRIBED = `${ADVERTISE_PATH}?subscribed=1`;

export type EarlyAccessValues = { email: string };
export type EarlyAccessActionData = FormActionData<EarlyAccessValues>;

export function earlyAccessRecord(email: string, now: Date): EarlyAccessRecord {
  return { email: email.trim(), timestamp: now.toISOString(), type: EARLY_ACCESS_TYPE, source: EARLY_ACCESS_SOURCE };
}

/** Keeps the early-access record (docs/product.md, Advertise) in the visitor's local storage (a failure there only warns). */
export function keepEarlyAccessRecord(email: string, now = new Date()): void {
  writeJson(EARLY_ACCESS_STORAGE_KEY, earlyAccessRecord(email, now));
}

/** The early-access post: checked with the shared schema, stored on the server, then redirected. */
export async function earlyAccessAction({ request, context }: ActionFunctionArgs) {
  const post = await readPost(request, { email: '' });
  if (!post.ok) return refusedPost(post);
  const { values, idempotencyKey } = post;
  const checked = validateForm(earlyAccessSchema, values);
  if (!checked.success)
    return data<EarlyAccessActionData>({ fieldErrors: checked.fieldErrors, values, idempotencyKey }, { status: 400 });
  const sent = await sendForm(context, '/api/early-access', checked.data, idempotencyKey);
  if (sent !== 'unreachable' && sent.ok) return redirect(ADVERTISE_SUBSCRIBED, 303);
  return data<EarlyAccessActionData>(
    { fieldErrors: {}, values, idempotencyKey, formError: EARLY_ACCESS_FAILED },
    { status: failedStatus(sent) },
  );
}
