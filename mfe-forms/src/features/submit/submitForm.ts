import type { ActionFunctionArgs } from 'react-router-dom';
import type { SubmissionInput } from '@aitools/contracts/forms';
import { formAction, type FormActionData, type FormPost } from '../../shared/formRoute';

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
 * The submission's post (formAction), redirected to the Thank You screen. The two failure texts of docs/product.md,
 * Submit form: the server answered an error, or the request itself failed.
 */
export const submitForm: FormPost<SubmitValues> = {
  empty: EMPTY_SUBMISSION,
  schema: (v) => v.submissionSchema,
  apiPath: '/api/submissions',
  sentPath: SUBMIT_DONE,
  failure: (sent) =>
    sent === 'unreachable'
      ? { fieldErrors: {}, formError: SUBMIT_UNEXPECTED }
      : { fieldErrors: sent.body?.fieldErrors ?? {}, formError: SUBMIT_FAILED },
};

export function submitAction(args: ActionFunctionArgs) {
  return formAction(args, submitForm);
}
