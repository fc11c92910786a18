import type { InputHTMLAttributes, ReactNode } from 'react';
import { labelOf, type FormErrors } from '../fieldErrors';
import { Field } from './Field';

/**
 * A text input of a console form with field errors (fieldErrors.ts): its label from the form's fields, its reason and
 * hint beside it (Field), its id `<form's prefix>-<name>`, and editing it clears its reason only.
 */
export function FormInput({
  formErrors: form,
  name,
  value,
  onValue,
  hint,
  ...input
}: {
  formErrors: FormErrors;
  name: string;
  value: string;
  onValue: (value: string) => void;
  hint?: ReactNode;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange'>) {
  const id = `${form.idPrefix}-${name}`;
  return (
    <Field id={id} label={labelOf(form.fields, name)} error={form.errors[name]} hint={hint}>
      <input
        id={id}
        value={value}
        onChange={(e) => {
          onValue(e.target.value);
          form.clear(name);
        }}
        {...input}
        {...form.marks(name, hint ? `${id}-hint` : undefined)}
      />
    </Field>
  );
}
