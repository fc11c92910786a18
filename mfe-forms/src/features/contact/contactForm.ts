import { data, redirect, type ActionFunctionArgs } from 'react-router-dom';
import { contactSchema, validateForm, type ContactInput } from '@aitools/contracts/forms';
import { failedStatus, readPost, refusedPost, sendForm, type FormActionData } from '../../shared/formRoute';

export const CONTACT_PATH = '/contact';
/** Where a sent message lands: a refresh of it sends nothing again. */
const CONTACT_SENT = `${CONTACT_PATH}?sent=1`;

export type ContactValues = { [K in keyof ContactInput]: string };
export const EMPTY_CONTACT: ContactValues = { name: '', email: '', subject: '', message: '' };
export type ContactActionData = FormActionData<ContactValues>;

/** The contact form's post: checked with the shared schema, sent to the API, then redirected (post/redirect/get). */
export async function contactAction({ request, context }: ActionFunctionArgs) {
  const post = await readPost(request, EMPTY_CONTACT);
  if (!post.ok) return refusedPost(post);
  const { values, idempotencyKey } = post;
  const checked = validateForm(contactSchema, values);
  if (!checked.success)
    return data<ContactActionData>({ fieldErrors: checked.fieldErrors, values, idempotencyKey }, { status: 400 });
  const sent = await sendForm(context, '/api/contact/submit', checked.data, idempotencyKey);
  if (sent !== 'unreachable' && sent.ok) return redirect(CONTACT_SENT, 303);
  // Any refusal or failure is the error banner, with the values kept.
  const fieldErrors = sent !== 'unreachable' ? (sent.body?.fieldErrors ?? {}) : {};
  return data<ContactActionData>(
    { fieldErrors, values, idempotencyKey, formError: 'send' },
    { status: failedStatus(sent) },
  );
}
