import { data, redirect, type ActionFunctionArgs } from 'react-router-dom';
import { submissionSchema, validateForm, type SubmissionInput } from '@aitools/contracts/forms';
import { failedStatus, readPost, refusedPost, sendForm, type FormActionData } from '../../shared/formRoute';

export const SUBMIT_FAILED = 'Failed to submit your tool. Please try again.';
export const SUBMIT_UNEXPECTED = 'An unexpected error occurred. Please try again.';

export const SUBMIT_PATH = '/submit';
/** Where a stored submission lands (the Thank You screen): a refresh of it stores nothing again. */
const SUBMIT_DONE = `${SUBMIT_PATH}?submitted=1`;

export type SubmitValues = Required<{ [K in keyof SubmissionInput]: string }>;
export const EMPTY_SUBMISSION: SubmitValues = {
  name: '',
  email: '',
  website_url: '',
  tool_type: 'ai-tool',
  description: '',
  message: '',
};
export type SubmitActionData = FormActionData<SubmitValues>;

/**
 * The submission's post: checked with the shared schema, sent, then redirected to the Thank You screen. The two
 * failure texts of docs/product.md, Submit form: the server answered an error, or the request itself failed.
 */
export async function submitAction({ request, context }: ActionFunctionArgs) {
  const post = await readPost(request, EMPTY_SUBMISSION);
  if (!post.ok) return refusedPost(post);
  const { values, idempotencyKey } = post;
  const checked = validateForm(submissionSchema, values);
  if (!checked.success)
    return data<SubmitActionData>({ fieldErrors: checked.fieldErrors, values, idempotencyKey }, { status: 400 });
  const sent = await sendForm(context, '/api/submissions', checked.data, idempotencyKey);
  if (sent !== 'unreachable' && sent.ok) return redirect(SUBMIT_DONE, 303);
  const failure: SubmitActionData =
    sent === 'unreachable'
      ? { fieldErrors: {}, values, idempotencyKey, formError: SUBMIT_UNEXPECTED }
      : { fieldErrors: sent.body?.fieldErrors ?? {}, values, idempotencyKey, formError: SUBMIT_FAILED };
  return data(failure, { status: failedStatus(sent) });
}
