import { describe, expect, it } from 'vitest';
import { can, releaseRemotes, roleLabel } from './roles';
import { person } from './testing';

describe('roles', () => {
  it('a release manager releases only the remotes listed', () => {
    const p = person([{ role: 'release-manager', remotes: ['blog'] }, { role: 'viewer' }]);
    expect(releaseRemotes(p)).toEqual(['blog']);
    expect(can.release(p, 'blog')).toBe(true);
    expect(can.release(p, 'directory')).toBe(false);
  });

  it('only a moderator acts on submissions; every role reads them; admin is its own role', () => {
    expect(can.moderate(person([{ role: 'viewer' }]))).toBe(false);
    expect(can.readModeration(person([{ role: 'viewer' }]))).toBe(true);
    expect(can.moderate(person([{ role: 'moderator' }]))).toBe(true);
    expect(can.admin(person([{ role: 'moderator' }]))).toBe(false);
    expect(can.admin(person([{ role: 'admin' }]))).toBe(true);
    expect(can.readModeration(person([{ role: 'editor' }]))).toBe(true);
    expect(can.readModeration(person([]))).toBe(false);
    expect(can.moderate(person([{ role: 'admin' }]))).toBe(false);
  });

  it('names a release manager with its remotes', () => {
    expect(roleLabel({ role: 'release-manager', remotes: ['blog', 'forms'] })).toBe('release manager (blog, forms)');
  });
});
