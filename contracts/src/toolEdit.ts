/**
 * What an editor may change on a tool in the console (docs/operations.md, Editing content: Tools): every field its page
 * shows, under the field rules of every other write path (fields.ts, forms.ts, mcp.ts). The console checks a draft
 * with it before sending; the api checks the save again and answers each refused field with its reason.
 */
import { fieldErrorsOf, z } from './zod';
import { isSitePath, isWebUrl, requiredTextField, textField, webUrlField } from './fields';
import { DESCRIPTION_MAX_LENGTH, NAME_MAX_LENGTH, URL_MAX_LENGTH } from './forms';
import { mcpSeedRecordSchema } from './mcp';
import type { FieldErrors } from './answers';
import { hasVisibleCharacter } from './text';

export const SLUG_MAX_LENGTH = 100;
/** The same bounds as a moderator's approval (category and pricing of a new tool). */
export const CATEGORY_MAX_LENGTH = 60;
export const PRICING_MAX_LENGTH = 40;
export const TAG_MAX_LENGTH = 40;
export const TAGS_MAX = 30;
export const FULL_DESCRIPTION_MAX_LENGTH = 20000;
export const COMPANY_MAX_LENGTH = 100;
export const KEY_FEATURES_MAX = 30;
export const FAQS_MAX = 30;
export const PLANS_MAX = 12;
export const PLAN_NAME_MAX_LENGTH = 60;
export const PLAN_FEATURES_MAX = 30;
export const SHORT_TEXT_MAX_LENGTH = 200;
export const LONG_TEXT_MAX_LENGTH = 5000;

/** Lowercase letters and digits in words joined by single hyphens: what an address of /tool/<slug> may be. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const optional = (label: string, max: number, multiline = false) =>
  textField({ label, max, multiline })
    .optional()
    // Nothing a reader can see (a blank braille cell, a lone accent) is no value, as an empty field is.
    .transform((v) => (v && hasVisibleCharacter(v) ? v : undefined));

const list = <T extends z.ZodType>(entry: T, label: string, max: number) =>
  z.array(entry, { error: `${label} must be a list` }).max(max, `At most ${max} ${label.toLowerCase()}`);

/** A key feature: a title alone is stored as the plain string the older data uses; with a description, as a pair. */
const keyFeatureField = z
  .preprocess(
    (v) => (typeof v === 'string' ? { title: v } : v),
    z
      .object(
        {
          title: requiredTextField('Title', SHORT_TEXT_MAX_LENGTH),
          description: optional('Description', LONG_TEXT_MAX_LENGTH, true),
        },
        { error: 'A key feature is a title and a description' },
      )
      .strict(),
  )
  .transform((f) => (f.description ? { title: f.title, description: f.description } : f.title));

const faqField = z
  .object({
    question: requiredTextField('Question', SHORT_TEXT_MAX_LENGTH),
    answer: requiredTextField('Answer', LONG_TEXT_MAX_LENGTH, true),
  })
  .strict();

/** A plan as plans.ts edits it; one the page would skip (a name alone) is refused rather than silently dropped. */
const planField = z
  .object({
    name: requiredTextField('Plan name', PLAN_NAME_MAX_LENGTH),
    price: optional('Price', SHORT_TEXT_MAX_LENGTH),
    features: list(
      requiredTextField('A plan feature', SHORT_TEXT_MAX_LENGTH),
      'Plan features',
      PLAN_FEATURES_MAX,
    ).default([]),
    description: optional('Plan description', LONG_TEXT_MAX_LENGTH, true),
    highlight: z.boolean({ error: 'Highlight is true or false' }).default(false),
  })
  .strict()
  .refine((p) => p.price || p.features.length || p.description, {
    path: ['price'],
    message: 'A plan needs a price, features or a description',
  });

/** A logo: a web address, or a path on this site (the brand tiles under /images/). */
const logoField = textField({ label: 'Logo', max: URL_MAX_LENGTH }).refine(
  (v) => v === '' || isWebUrl(v) || isSitePath(v),
  'Logo must be a web address (https://…) or a path on this site (/images/…)',
);

function buildToolEditSchema() {
  return z
    .object({
      name: requiredTextField('Name', NAME_MAX_LENGTH),
      slug: z
        .string({ error: 'Slug must be text' })
        .trim()
        .min(1, 'Slug is required')
        .max(SLUG_MAX_LENGTH, `Slug must be ${SLUG_MAX_LENGTH} characters or less`)
        .regex(SLUG_PATTERN, 'Slug must be lowercase letters and digits joined by single hyphens'),
      description: requiredTextField('Description', DESCRIPTION_MAX_LENGTH, true),
      fullDescription: optional('Full description', FULL_DESCRIPTION_MAX_LENGTH, true),
      website: webUrlField({ label: 'Website URL', max: URL_MAX_LENGTH }),
      category: requiredTextField('Category', CATEGORY_MAX_LENGTH),
      pricing: requiredTextField('Pricing', PRICING_MAX_LENGTH),
      tags: z
        .array(requiredTextField('A tag', TAG_MAX_LENGTH), { error: 'Tags must be a list' })
        .max(TAGS_MAX, `At most ${TAGS_MAX} tags`)
        .refine((tags) => new Set(tags.map((t) => t.toLowerCase())).size === tags.length, 'A tag is listed twice'),
      logo: logoField.optional().transform((v) => (v ? v : undefined)),
      company: optional('Company', COMPANY_MAX_LENGTH),
      mcpBadge: z.enum(['Official', 'Community'], { error: 'MCP badge is Official or Community' }).optional(),
      /** The MCP registry record (server.json) of an MCP server; null removes it. */
      mcpServer: mcpSeedRecordSchema.nullable().optional(),
      /** Absent keeps the stored list (an edit from before these fields); an empty list removes it. */
      keyFeatures: list(keyFeatureField, 'Key features', KEY_FEATURES_MAX).optional(),
      faqs: list(faqField, 'FAQs', FAQS_MAX).optional(),
      /** The page's pricing plans (detailedPricing), stored as its structured shape (plans.ts). */
      plans: list(planField, 'Plans', PLANS_MAX).optional(),
    })
    .strict();
}

export const toolEditSchema = /* @__PURE__ */ buildToolEditSchema();
export type ToolEdit = z.output<typeof toolEditSchema>;
export type ToolEditInput = z.input<typeof toolEditSchema>;

/** The list fields, whose reasons name the entry and part refused ("faqs.2.answer"). */
export const TOOL_EDIT_LISTS = ['keyFeatures', 'faqs', 'plans'] as const;

/** Checks an edit: the data, or one reason per refused field (`form` for the edit as a whole). */
export function checkToolEdit(
  input: unknown,
): { success: true; data: ToolEdit } | { success: false; fieldErrors: FieldErrors } {
  const r = toolEditSchema.safeParse(input ?? {});
  return r.success
    ? { success: true, data: r.data }
    : { success: false, fieldErrors: fieldErrorsOf(r.error, 'form', TOOL_EDIT_LISTS) };
}

/** A category or tag rename or merge: the new name under the same rules as the tool's own field. */
export const taxonomyRenameSchema = /* @__PURE__ */ z
  .object({
    kind: z.enum(['category', 'tag'], { error: 'kind is category or tag' }),
    from: z.string().min(1, 'from is required').max(CATEGORY_MAX_LENGTH),
    to: requiredTextField('The new name', CATEGORY_MAX_LENGTH),
  })
  .strict()
  .refine((r) => r.kind !== 'tag' || r.to.length <= TAG_MAX_LENGTH, {
    path: ['to'],
    message: `A tag must be ${TAG_MAX_LENGTH} characters or less`,
  });
export type TaxonomyRename = z.output<typeof taxonomyRenameSchema>;

/** What a moderator may choose when approving a submission (the console and `pnpm moderate approve` alike): the new
 *  tool's category and pricing, under the same rules as the tool's own fields. */
export const approvalChoicesSchema = /* @__PURE__ */ z
  .object({
    category: requiredTextField('Category', CATEGORY_MAX_LENGTH).optional(),
    pricing: requiredTextField('Pricing', PRICING_MAX_LENGTH).optional(),
  })
  .strict();
export type ApprovalChoices = z.output<typeof approvalChoicesSchema>;
