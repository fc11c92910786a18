/**
 * The console's forms as a person sees them: each field's label, and which of the API's reasons (the paths of
 * `fieldErrors`) belong to it. One place for both ends: the console labels its controls and marks the refused ones
 * with it, and the api names refused fields by these labels in its answers' `error`, so nobody reads `roles.0.remotes.0`.
 */
import type { FieldErrors } from './answers';

export interface FormField {
  /** The field's key in the form (its control is `${form}-${name}` in the console). */
  name: string;
  label: string;
  /** The reasons' paths that are this field's, "*" standing for any list position ("roles.*.remotes"). */
  paths: readonly string[];
  /** A list whose reasons keep their own path ("faqs.2.answer"), each shown beside its entry's part. */
  entries?: boolean;
}
export type FormFields = readonly FormField[];

/** The reasons of no field of the form (the request as a whole). */
export const FORM_KEY = 'form';

const field = (name: string, label: string, ...paths: string[]): FormField => ({
  name,
  label,
  paths: [name, ...paths],
});

/** The post editor, in the order it shows them; a save's fields come in `fields`, the address beside them. */
export const POST_FORM: FormFields = [
  field('title', 'Title', 'fields.title'),
  field('slug', 'Address'),
  field('excerpt', 'Excerpt', 'fields.excerpt'),
  field('category', 'Category', 'fields.category'),
  field('tags', 'Tags', 'fields.tags'),
  field('author', 'Author', 'fields.author'),
  field('read_time', 'Read time', 'fields.read_time'),
  field('featured_image', 'Cover image', 'fields.featured_image'),
  field('featured_image_alt', 'Cover description', 'fields.featured_image_alt'),
  field('content', 'Markdown', 'fields.content'),
  field('at', 'Publish at (UTC)'),
];

/** The invitation form (and a person's roles): a release manager's remotes are an entry of `roles`. */
export const INVITE_FORM: FormFields = [
  field('name', 'Name'),
  field('email', 'Email (optional)'),
  field('roles', 'Roles', 'roles.*.role'),
  field('remotes', 'Remotes they release', 'roles.*.remotes'),
];

/** A new release token. */
export const TOKEN_FORM: FormFields = [field('label', 'Label'), field('remotes', 'Remotes (comma-separated)')];

/** An upstream registry the site follows (the console's Upstreams). */
export const UPSTREAM_FORM: FormFields = [
  field('url', 'Address'),
  field('policy', 'New servers'),
  field('pagesPerRun', 'Pages per run'),
];

/** A rejection of submissions: the reason the submitters' records keep. */
export const REJECT_FORM: FormFields = [field('reason', 'Reason')];

/** A release action's confirmation (canary, promote, abort, rollback), with the canary's and rollback's fields. */
export const RELEASE_ACTION_FORM: FormFields = [
  field('release', 'Release'),
  field('share', 'Share of visitors (%)'),
  field('confirm', "The remote's name"),
  field('reason', 'Reason'),
];

/** A passkey added by a signed-in person. */
export const PASSKEY_FORM: FormFields = [field('label', 'Name (optional)')];

/** A category's or tag's rename or merge. */
export const TAXONOMY_FORM: FormFields = [
  field('kind', 'Which'),
  field('from', 'From'),
  field('to', 'Into (a new name renames; a name in use merges)'),
];

/** The tool editor's fields (the lists answer per entry and part, "faqs.2.answer", shown beside that part). */
export const TOOL_FORM: FormFields = [
  field('name', 'Name'),
  field('slug', 'Slug (the address /tool/…)'),
  field('description', 'Description'),
  field('fullDescription', 'Full description'),
  field('website', 'Website URL'),
  field('category', 'Category'),
  field('pricing', 'Pricing'),
  field('logo', 'Logo (web address or /images/… path)'),
  field('company', 'Company'),
  field('tags', 'Tags (comma-separated)'),
  field('mcpBadge', 'MCP badge'),
  field('mcpServer', 'MCP registry record (server.json; empty for none)'),
  { ...field('keyFeatures', 'Key features'), entries: true },
  { ...field('faqs', 'FAQs'), entries: true },
  { ...field('plans', 'Pricing plans'), entries: true },
];

const covers = (pattern: string, path: string) => {
  const want = pattern.split('.');
  const got = path.split('.');
  return want.length <= got.length && want.every((part, i) => part === '*' || part === got[i]);
};

/** The field a reason's path belongs to: the one whose pattern covers the most of it. */
export function fieldOfPath(fields: FormFields, path: string): FormField | undefined {
  let best: { field: FormField; depth: number } | undefined;
  for (const f of fields)
    for (const pattern of f.paths) {
      const depth = pattern.split('.').length;
      if (covers(pattern, path) && (!best || depth > best.depth)) best = { field: f, depth };
    }
  return best?.field;
}

/**
 * An answer's reasons keyed by the form's field names, the first per field (a list of `entries` keeps each path);
 * a reason of no field goes under `form`.
 */
export function formErrorsOf(fields: FormFields, fieldErrors: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  for (const [path, message] of Object.entries(fieldErrors)) {
    const f = fieldOfPath(fields, path);
    out[!f ? FORM_KEY : f.entries ? path : f.name] ??= message;
  }
  return out;
}

/** The fields of the form that have a reason, in the form's order. */
export function refusedFields(fields: FormFields, fieldErrors: FieldErrors): FormField[] {
  const refused = new Set(Object.keys(fieldErrors).map((path) => fieldOfPath(fields, path)));
  return fields.filter((f) => refused.has(f));
}

/** Whether a reason already names its field ("Excerpt is required", "At least one tag" for Tags). */
const names = (message: string, label: string) => {
  const word = label.split(/[ (]/)[0]!.toLowerCase();
  const text = message.toLowerCase();
  return text.includes(word) || text.includes(word.replace(/s$/, ''));
};

/**
 * The reasons in one line, in the form's order, each field once and named by its label:
 * "Excerpt is required; Tags: at least one tag is required". A path of no field keeps its own words.
 */
export function reasonsText(fields: FormFields, fieldErrors: FieldErrors): string {
  const known = refusedFields(fields, fieldErrors).map((f) => {
    const message = Object.entries(fieldErrors).find(([path]) => fieldOfPath(fields, path) === f)![1];
    return names(message, f.label) ? message : `${f.label}: ${message}`;
  });
  const others = Object.entries(fieldErrors)
    .filter(([path]) => !fieldOfPath(fields, path))
    .map(([path, message]) => (path === FORM_KEY || path === 'body' ? message : `${path}: ${message}`));
  return [...known, ...others].join('; ');
}
