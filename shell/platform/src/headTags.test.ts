import { describe, expect, it } from 'vitest';
import { applyHead, canonicalUrl, renderHeadTags, serializeJsonForScript } from './headTags';

const head = {
  title: 'Cursor | AI Tools <Directory>',
  description: 'An "AI" editor & more',
  canonical: 'https://example.com/tool/cursor',
  robots: 'index,follow',
  jsonLd: { '@type': 'SoftwareApplication', name: '</script><script>alert(1)</script>' },
  links: [{ rel: 'next', href: '/blog?page=2' }],
};

describe('head tags', () => {
  it('renders escaped markup for the server', () => {
    const html = renderHeadTags(head);
    expect(html).toContain('<title>Cursor | AI Tools &lt;Directory&gt;</title>');
    expect(html).toContain('<meta data-head name="description" content="An &quot;AI&quot; editor &amp; more">');
    expect(html).toContain('<meta data-head name="robots" content="index,follow">');
    expect(html).toContain('<link data-head rel="canonical" href="https://example.com/tool/cursor">');
    expect(html).toContain('<link data-head rel="next" href="/blog?page=2">');
    expect(html).not.toContain('</script><script>alert(1)');
    expect(html).toContain('\\u003c/script\\u003e');
  });

  it('replaces the previous page tags in the browser', () => {
    applyHead(document, head);
    applyHead(document, { title: 'Other', robots: 'noindex,nofollow' });
    expect(document.title).toBe('Other');
    expect(document.head.querySelectorAll('[data-head]').length).toBe(2);
    expect(document.head.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex,nofollow');
    expect(document.head.querySelector('link[rel="canonical"]')).toBeNull();
  });

  it("leaves the server's head as it is when the page is hydrated with the same head", () => {
    for (const noindex of [false, true]) {
      document.head.innerHTML = renderHeadTags(head, { noindex });
      const changes = new MutationObserver(() => {});
      changes.observe(document.head, { subtree: true, childList: true, attributes: true, characterData: true });
      applyHead(document, head);
      expect(changes.takeRecords()).toEqual([]);
      changes.disconnect();
    }
  });

  it('replaces the tags when any of them differs from the page head, down to one attribute or the text', () => {
    const variants = [
      { ...head, canonical: 'https://example.com/tool/zed' },
      { ...head, jsonLd: { '@type': 'SoftwareApplication', name: 'Zed' } },
      { ...head, links: [] },
    ];
    for (const next of variants) {
      document.head.innerHTML = renderHeadTags(head);
      applyHead(document, next);
      const now = document.createElement('head');
      now.innerHTML = renderHeadTags(next);
      const managed = (h: HTMLElement) => [...h.querySelectorAll('[data-head]')].map((el) => el.outerHTML);
      expect(managed(document.head)).toEqual(managed(now));
    }
  });

  it("keeps a page the server wrote noindex (a previewed draft) out of search engines after the routes' heads", () => {
    const html = renderHeadTags(head, { noindex: true });
    expect(html.match(/name="robots"/g)).toHaveLength(1);
    expect(html).toContain('<meta name="robots" content="noindex,nofollow">');
    document.head.innerHTML = html;
    applyHead(document, head);
    const robots = document.head.querySelectorAll('meta[name="robots"]');
    expect([...robots].map((m) => m.getAttribute('content'))).toEqual(['noindex,nofollow']);
    document.head.innerHTML = '';
  });

  it('announces a social image as a large card for Open Graph and Twitter', () => {
    const html = renderHeadTags({ title: 'Cursor', image: 'https://example.com/og/tool/cursor.png?v=1&x=2' });
    expect(html).toContain(
      '<meta data-head property="og:image" content="https://example.com/og/tool/cursor.png?v=1&amp;x=2">',
    );
    expect(html).toContain('<meta data-head name="twitter:card" content="summary_large_image">');
    expect(html).toContain(
      '<meta data-head name="twitter:image" content="https://example.com/og/tool/cursor.png?v=1&amp;x=2">',
    );
    expect(renderHeadTags({ title: 'No image' })).not.toContain('og:image');
  });

  it('serialises JSON that cannot break out of a script element', () => {
    const s = serializeJsonForScript({ a: '</script>\u2028' });
    expect(s).not.toMatch(/<|>|\u2028/);
    expect(JSON.parse(s)).toEqual({ a: '</script>\u2028' });
  });

  it('forces canonical links to https without a trailing slash', () => {
    expect(canonicalUrl('http://example.com/', '/tool/cursor/')).toBe('https://example.com/tool/cursor');
    expect(canonicalUrl('https://example.com', '/')).toBe('https://example.com');
  });
});
