/**
 * A tool's key features, FAQs and plans in the edit form (docs/operations.md, Editing content: Tools). A list the
 * loaded version does not carry stays undefined and is not sent, so the save keeps the stored one.
 */
import { Field } from '../components/Field';
import { ListEditor } from '../components/ListEditor';

export interface FeatureForm {
  title: string;
  description: string;
}
export interface FaqForm {
  question: string;
  answer: string;
}
/** A plan's features are one per line. */
export interface PlanForm {
  name: string;
  price: string;
  features: string;
  description: string;
  highlight: boolean;
}
export interface ListsForm {
  keyFeatures?: FeatureForm[];
  faqs?: FaqForm[];
  plans?: PlanForm[];
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const entries = (v: unknown) => (Array.isArray(v) ? (v as Record<string, unknown>[]) : undefined);

export function listsToForm(edit: Record<string, unknown>): ListsForm {
  return {
    keyFeatures: entries(edit.keyFeatures)?.map((f) =>
      typeof f === 'string'
        ? { title: f, description: '' }
        : { title: text(f.title), description: text(f.description) },
    ),
    faqs: entries(edit.faqs)?.map((f) => ({ question: text(f.question), answer: text(f.answer) })),
    plans: entries(edit.plans)?.map((p) => ({
      name: text(p.name),
      price: text(p.price),
      features: Array.isArray(p.features) ? p.features.join('\n') : '',
      description: text(p.description),
      highlight: p.highlight === true,
    })),
  };
}

/** The lists as the edit sends them; the contracts' rules then trim, check and store them. */
export function listsFromForm(form: ListsForm): Record<string, unknown> {
  const edit: Record<string, unknown> = {};
  if (form.keyFeatures) edit.keyFeatures = form.keyFeatures;
  if (form.faqs) edit.faqs = form.faqs;
  if (form.plans)
    edit.plans = form.plans.map((p) => ({
      ...p,
      features: p.features
        .split('\n')
        .map((f) => f.trim())
        .filter(Boolean),
    }));
  return edit;
}

/** A reason for a part, or the first one for any piece of it ("plans.0.features" for "plans.0.features.2"). */
const reasonOf = (errors: Record<string, string>, key: string) =>
  errors[key] ?? Object.entries(errors).find(([k]) => k.startsWith(`${key}.`))?.[1];

export function ToolLists({
  form,
  errors,
  onChange,
}: {
  form: ListsForm;
  errors: Record<string, string>;
  onChange: (lists: ListsForm) => void;
}) {
  /** A control of entry `i` of `list`: its id, value and reason, and the change of one part. */
  const control = <T extends object>(list: keyof ListsForm, i: number, item: T, set: (item: T) => void) => {
    return (part: keyof T & string) => {
      const id = `tool-${list}-${i}-${part}`;
      const error =
        reasonOf(errors, `${list}.${i}.${part}`) ?? (list === 'keyFeatures' ? errors[`${list}.${i}`] : undefined);
      return {
        field: { id, error },
        input: {
          id,
          value: String(item[part]),
          onChange: (e: { target: { value: string } }) => set({ ...item, [part]: e.target.value }),
          'aria-invalid': error ? true : undefined,
          'aria-describedby': error ? `${id}-error` : undefined,
        },
      };
    };
  };

  return (
    <>
      <ListEditor<FeatureForm>
        id="tool-keyFeatures"
        legend="Key features"
        noun="key feature"
        items={form.keyFeatures ?? []}
        blank={{ title: '', description: '' }}
        error={errors.keyFeatures}
        onChange={(keyFeatures) => onChange({ ...form, keyFeatures })}
      >
        {(item, i, set) => {
          const c = control('keyFeatures', i, item, set);
          const [title, description] = [c('title'), c('description')];
          return (
            <>
              <Field {...title.field} label="Title">
                <input {...title.input} />
              </Field>
              <Field {...description.field} label="Description (optional)">
                <textarea rows={2} {...description.input} />
              </Field>
            </>
          );
        }}
      </ListEditor>
      <ListEditor<FaqForm>
        id="tool-faqs"
        legend="FAQs"
        noun="FAQ"
        items={form.faqs ?? []}
        blank={{ question: '', answer: '' }}
        error={errors.faqs}
        onChange={(faqs) => onChange({ ...form, faqs })}
      >
        {(item, i, set) => {
          const c = control('faqs', i, item, set);
          const [question, answer] = [c('question'), c('answer')];
          return (
            <>
              <Field {...question.field} label="Question">
                <input {...question.input} />
              </Field>
              <Field {...answer.field} label="Answer">
                <textarea rows={3} {...answer.input} />
              </Field>
            </>
          );
        }}
      </ListEditor>
      <ListEditor<PlanForm>
        id="tool-plans"
        legend="Pricing plans (the page orders them free to enterprise; plans of one tier keep this order)"
        noun="plan"
        items={form.plans ?? []}
        blank={{ name: '', price: '', features: '', description: '', highlight: false }}
        error={errors.plans}
        onChange={(plans) => onChange({ ...form, plans })}
      >
        {(item, i, set) => {
          const c = control('plans', i, item, set);
          const [name, price, features, description] = [c('name'), c('price'), c('features'), c('description')];
          return (
            <>
              <Field {...name.field} label="Plan name">
                <input {...name.input} />
              </Field>
              <Field {...price.field} label="Price">
                <input {...price.input} />
              </Field>
              <Field {...features.field} label="Features (one per line)">
                <textarea rows={4} {...features.input} />
              </Field>
              <Field {...description.field} label="Plan description">
                <textarea rows={2} {...description.input} />
              </Field>
              <label className="check">
                <input
                  type="checkbox"
                  checked={item.highlight}
                  onChange={(e) => set({ ...item, highlight: e.target.checked })}
                />
                Highlight this plan
              </label>
            </>
          );
        }}
      </ListEditor>
    </>
  );
}
