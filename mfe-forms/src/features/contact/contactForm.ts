import type { ActionFunctionArgs } from 'react-router-dom';
import type { ContactInput } from '@aitools/contracts/forms';
import { formAction, type FormActionData, type FormPost } from '../../shared/formRoute';

export const CONTACT_PATH = '/contact';
/** Where a sent message lands: a refresh of it sends nothing again. */
const CONTACT_SENT = `${CONTACT_PATH}?sent=1`;

export type ContactValues = { [K in keyof ContactInput]: string };
export const EMPTY_CONTACT: ContactValues = { name: '', email: '', subject: '', message: '' };
export type ContactActionData = FormActionData<ContactValues>;

/** The contact form's post (formAction); any refusal or failure is the error banner, with the values kept. */
export const contactForm: FormPost<ContactValues> = {
  empty: EMPTY_CONTACT,
  schema: (v) => v.contactSchema,
  apiPath: '/api/contact/submit',
  sentPath: CONTACT_SENT,
  failure: (sent) => ({
    fieldErrors: sent !== 'unreachable' ? (sent.body?.fieldErrors ?? {}) : {},
    formError: 'send',
  }),
};

export function contactAction(args: ActionFunctionArgs) {
  return formAction(args, contactForm);
}
