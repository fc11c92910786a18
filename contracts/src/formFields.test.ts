import { describe, expect, it } from 'vitest';
import { fieldOfPath, formErrorsOf, INVITE_FORM, POST_FORM, reasonsText } from './formFields';

describe("the console forms' fields", () => {
  it("a reason's path belongs to the field whose pattern covers most of it (a list position is any)", () => {
    expect(fieldOfPath(INVITE_FORM, 'roles.0.remotes.1')?.label).toBe('Remotes they release');
    expect(fieldOfPath(INVITE_FORM, 'roles')?.label).toBe('Roles');
    expect(fieldOfPath(INVITE_FORM, 'roles.2.role')?.label).toBe('Roles');
    expect(fieldOfPath(POST_FORM, 'fields.tags.3')?.name).toBe('tags');
    expect(fieldOfPath(POST_FORM, 'excerpt')?.name).toBe('excerpt');
    expect(fieldOfPath(POST_FORM, 'version')).toBeUndefined();
  });

  it("an answer's reasons by the form's field names, the first per field; others under form", () => {
    expect(
      formErrorsOf(POST_FORM, {
        'fields.tags.0': 'A tag cannot be empty',
        'fields.tags.1': 'Tag must be 40 characters or less',
        version: 'Too small',
      }),
    ).toEqual({ tags: 'A tag cannot be empty', form: 'Too small' });
  });

  it('names each field once, by its label when its reason does not already, in the form order', () => {
    expect(
      reasonsText(POST_FORM, {
        tags: 'At least one tag is required',
        excerpt: 'Excerpt is required',
        slug: 'lowercase words joined by hyphens',
        'fields.tags.0': 'A tag cannot be empty',
      }),
    ).toBe('Address: lowercase words joined by hyphens; Excerpt is required; At least one tag is required');
    expect(reasonsText([], { 'roles.0': 'x', body: 'Expected an object' })).toBe('roles.0: x; Expected an object');
  });
});
