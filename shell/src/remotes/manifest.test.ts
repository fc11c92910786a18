import { describe, expect, it } from 'vitest';
import { parseManifest } from './manifest';

describe('parseManifest', () => {
  it('keeps well-formed remotes', () => {
    expect(
      parseManifest({ legal: { id: '1.0.0-x', entry: '/remotes/legal/1.0.0-x/remoteEntry.js', css: ['/a.css'] } }),
    ).toEqual({
      legal: { id: '1.0.0-x', entry: '/remotes/legal/1.0.0-x/remoteEntry.js', css: ['/a.css'] },
    });
  });

  it('drops malformed entries without hiding the others', () => {
    const m = parseManifest({
      legal: { id: 'a', entry: '/e.js' },
      blog: { id: '', entry: '/e.js' },
      forms: { entry: '/e.js' },
      directory: 'nope',
      other: { id: 'b', entry: '/f.js', css: [1, '/ok.css', ''] },
    });
    expect(Object.keys(m).sort()).toEqual(['legal', 'other']);
    expect(m.legal.css).toEqual([]);
    expect(m.other.css).toEqual(['/ok.css']);
  });

  it('answers an empty manifest for anything that is not an object', () => {
    expect(parseManifest(null)).toEqual({});
    expect(parseManifest([1, 2])).toEqual({});
    expect(parseManifest('x')).toEqual({});
  });
});
