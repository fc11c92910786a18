import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { Field } from './Field';

describe('Field', () => {
  it('labels its control, marks it required, and names its error and other descriptions', () => {
    render(
      <Field
        id="f-email"
        label="Email"
        required
        error="Email is required"
        describedBy="f-email-hint"
        after={<p id="f-email-hint">0/500</p>}
      >
        {(control) => <input {...control} name="email" />}
      </Field>,
    );
    const input = screen.getByLabelText(/Email/) as HTMLInputElement;
    expect(input.id).toBe('f-email');
    expect(input.required).toBe(true);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe('f-email-error f-email-hint');
    expect(document.getElementById('f-email-error')!.textContent).toBe('Email is required');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('without an error: no invalid state, only the other descriptions; announce makes an error an alert', () => {
    const { rerender } = render(
      <Field id="f-name" label="Name">
        {(control) => <input {...control} />}
      </Field>,
    );
    const input = screen.getByLabelText('Name');
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(input.hasAttribute('aria-describedby')).toBe(false);
    expect((input as HTMLInputElement).required).toBe(false);
    rerender(
      <Field id="f-name" label="Name" error="Too long" announce>
        {(control) => <input {...control} />}
      </Field>,
    );
    expect(screen.getByRole('alert').textContent).toBe('Too long');
  });
});
