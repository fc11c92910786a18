import { postJson } from '@aitools/platform';
import { submissionSchema, validateForm, type FieldErrors, type FormFailure, type SubmissionInput } from '@aitools/api/contracts/forms';

export const SUBMIT_FAILED = 'Failed to submit your tool. Please try again.';
export const SUBMIT_UNEXPECTED = 'An unexpected error occurred. Please try again.';

export type SubmitValues = Required<{ [K in keyof SubmissionInput]: string }>;

export const EMPTY_SUBMISSION: SubmitValues = { name: '', email: '', website_url: '', tool_type: 'ai-tool', description: '', message: '' };

export type SubmitOutcome = { ok: true } | { ok: false; fieldErrors: FieldErrors; error?: string };

/**
 * Validates with the shared schema, then sends. The two failure texts of SPEC section 8: the server
 * answered an error, or the request itself failed.
 */
export async function sendSubmission(values: SubmitValues): Promise<SubmitOutcome> {
  const checked = validateForm(submissionSchema, values);
  if (!checked.success) return { ok: false, fieldErrors: checked.fieldErrors };
  try {
    const res = await postJson<FormFailure>('/api/submissions', checked.data);
    if (res.ok) return { ok: true };
    return { ok: false, fieldErrors: res.body?.fieldErrors ?? {}, error: SUBMIT_FAILED };
  } catch {
    return { ok: false, fieldErrors: {}, error: SUBMIT_UNEXPECTED };
  }
}
