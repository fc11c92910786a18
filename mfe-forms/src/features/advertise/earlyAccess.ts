import type { ActionFunctionArgs } from 'react-router-dom';
import { writeJson } from '@aitools/platform';
import { EARLY_ACCESS_SOURCE, EARLY_ACCESS_TYPE, type EarlyAccessRecord } from '@aitools/contracts/formOptions';
import { formAction, type FormActionData, type FormPost } from '../../shared/formRoute';

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

/** The early-access post (formAction): stored on the server, then redirected. */
export const earlyAccessForm: FormPost<EarlyAccessValues> = {
  empty: { email: '' },
  schema: (v) => v.earlyAccessSchema,
  apiPath: '/api/early-access',
  sentPath: ADVERTISE_SUBSCRIBED,
  failure: () => ({ fieldErrors: {}, formError: EARLY_ACCESS_FAILED }),
};

export function earlyAccessAction(args: ActionFunctionArgs) {
  return formAction(args, earlyAccessForm);
}
