/**
 * The forms' checks, loaded apart from the pages' code: zod is most of the forms' bytes (about 25 kB on the wire),
 * and a page shows and posts its form without it (docs/performance.md, "Phones"). The action awaits it; the
 * browser's own check before sending loads it when the visitor first touches a form (useFormPost).
 */
export { contactSchema, earlyAccessSchema, submissionSchema, validateForm } from '@aitools/contracts/forms';
