import { describe, expect, it } from 'vitest';
import { createPreviews, PREVIEW_TTL_SECONDS } from './preview';

const previews = createPreviews('secret-a', ['blog', 'directory']);
const now = new Date('2026-11-25T12:00:00Z');

function parts(link: string) {
  const url = new URL(link, 'https://site.example');
  const [, , remote = '', id = ''] = url.pathname.split('/');
  return { remote, id, exp: url.searchParams.get('exp') ?? '', sig: url.searchParams.get('sig') ?? '' };
}

describe('preview links', () => {
  it('signs a link for 24 hours that only this secret, remote and release verify', () => {
    const p = parts(previews.link('blog', '1.0.0-x', now));
    expect(Number(p.exp) - now.getTime() / 1000).toBe(PREVIEW_TTL_SECONDS);
    expect(previews.verify(p.remote, p.id, p.exp, p.sig, now)).toMatchObject({ remote: 'blog', id: '1.0.0-x' });
    expect(previews.verify('directory', p.id, p.exp, p.sig, now)).toBeNull();
    expect(previews.verify(p.remote, '1.0.0-y', p.exp, p.sig, now)).toBeNull();
    expect(previews.verify(p.remote, p.id, String(Number(p.exp) + 60), p.sig, now)).toBeNull();
    expect(createPreviews('secret-b', ['blog']).verify(p.remote, p.id, p.exp, p.sig, now)).toBeNull();
    // Expired a second after its 24 hours.
    expect(
      previews.verify(p.remote, p.id, p.exp, p.sig, new Date(now.getTime() + (PREVIEW_TTL_SECONDS + 1) * 1000)),
    ).toBeNull();
  });

  it('reads only valid preview cookies of known remotes, and clears them all', () => {
    const p = parts(previews.link('blog', '1.0.0-x'));
    const grant = previews.verify(p.remote, p.id, p.exp, p.sig)!;
    const cookie = previews.cookie(grant, true).split(';')[0]!;
    expect(previews.cookie(grant, true)).toMatch(/HttpOnly; SameSite=Lax; Secure$/);
    const req = {
      headers: { cookie: `theme=dark; ${cookie}; preview_directory=1.0.0-x:${p.exp}:${p.sig}; preview_nope=a:b:c` },
    };
    expect(previews.of(req)).toEqual({ blog: '1.0.0-x' });
    expect(previews.mayPreview(req)).toBe(true);
    expect(previews.mayPreview({ headers: { cookie: 'theme=dark' } })).toBe(false);
    expect(previews.clearCookies(req)).toHaveLength(3);
    expect(previews.clearCookies(req)[0]).toMatch(/^preview_blog=; Path=\/; Max-Age=0/);
  });
});
