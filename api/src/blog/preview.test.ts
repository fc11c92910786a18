import { describe, expect, it } from 'vitest';
import { createPostPreviews, MAX_POST_PREVIEWS } from './preview';

const previews = createPostPreviews('preview-test-secret');
/** The name=value a browser sends back after following `slug`'s link, made `hoursAgo` hours ago. */
const held = (slug: string, hoursAgo: number) => {
  const link = new URL(previews.link(slug, new Date(Date.now() - hoursAgo * 3600_000)), 'http://site.test');
  const grant = previews.verify(slug, link.searchParams.get('exp')!, link.searchParams.get('sig')!)!;
  return previews.cookie(grant, false).split(';')[0]!;
};
const request = (cookies: string[], url = '/') => ({ headers: { cookie: cookies.join('; ') }, url });

describe('post preview cookies', () => {
  it('one per post, each granting its own post only, on the page, its cover and the API alike', () => {
    const cookies = [held('first', 2), held('second', 1)];
    expect(previews.of(request(cookies, '/blog/first'))?.slug).toBe('first');
    expect(previews.of(request(cookies, '/covers/second.png?w=400'))?.slug).toBe('second');
    expect(previews.of(request(cookies), 'second')?.slug).toBe('second');
    expect(previews.of(request(cookies, '/blog/third'))).toBeNull();
    // A cookie renamed to another post grants nothing.
    expect(previews.of(request([cookies[0]!.replace('_first=', '_other=')], '/blog/other'))).toBeNull();
  });

  it(`a browser keeps at most ${MAX_POST_PREVIEWS}: following another link drops those expiring first`, () => {
    const cookies = Array.from({ length: MAX_POST_PREVIEWS + 2 }, (_, i) => held(`post-${i}`, i));
    // post-9 to post-11 were opened longest ago; the link being followed now is never dropped.
    const dropped = previews.dropped(request(cookies), 'post-new', false);
    expect(dropped.map((c) => c.split(';')[0])).toEqual([
      'preview_post_post-9=',
      'preview_post_post-10=',
      'preview_post_post-11=',
    ]);
    expect(dropped.every((c) => c.includes('Max-Age=0'))).toBe(true);
    // Following one already held again replaces it in place.
    expect(previews.dropped(request(cookies), 'post-0', false)).toHaveLength(2);
    expect(previews.dropped(request(cookies.slice(0, 3)), 'post-new', false)).toEqual([]);
  });
});
