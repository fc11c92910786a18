import { describe, expect, it } from 'vitest';
import { consoleCoverPath, siteAddresses } from './previewAddresses';

const SITE = 'https://site.example';

describe("the live preview's addresses", () => {
  it("resolves root-relative addresses against the site's origin, in src, href and every srcSet candidate", () => {
    const html =
      '<article><a href="/blog">the blog</a> <a href="#part">part</a> <a href="https://other.example/x">x</a>' +
      ' <a href="//cdn.example/y">y</a><img src="/logos/claude.svg?v=1" alt=""/>' +
      '<img srcSet="/covers/another.png?v=2&amp;w=400 400w, /covers/another.png?v=2 1200w"/></article>';
    expect(siteAddresses(html, `${SITE}/`, 'this-post')).toBe(
      '<article><a href="https://site.example/blog">the blog</a> <a href="#part">part</a>' +
        ' <a href="https://other.example/x">x</a> <a href="//cdn.example/y">y</a>' +
        '<img src="https://site.example/logos/claude.svg?v=1" alt=""/>' +
        '<img srcSet="https://site.example/covers/another.png?v=2&amp;w=400 400w, https://site.example/covers/another.png?v=2 1200w"/></article>',
    );
  });

  it("sends the previewed post's own cover, at every width and in both formats, to the console's drawing of it", () => {
    const html =
      '<picture><source type="image/webp" srcSet="/covers/this-post.webp?v=abc&amp;w=400 400w,' +
      ' /covers/this-post.webp?v=abc 1200w"/><img src="/covers/this-post.png?v=abc"' +
      ' srcSet="/covers/this-post.png?v=abc&amp;w=400 400w, /covers/this-post.png?v=abc 1200w"/></picture>';
    const [png, webp] = [consoleCoverPath('this-post'), consoleCoverPath('this-post', 'webp')];
    expect([png, webp]).toEqual(['/api/posts/this-post/cover.png', '/api/posts/this-post/cover.webp']);
    expect(siteAddresses(html, SITE, 'this-post')).toBe(
      `<picture><source type="image/webp" srcSet="${webp}?v=abc&amp;w=400 400w, ${webp}?v=abc 1200w"/>` +
        `<img src="${png}?v=abc" srcSet="${png}?v=abc&amp;w=400 400w, ${png}?v=abc 1200w"/></picture>`,
    );
    // A post whose slug begins the same is another post.
    expect(siteAddresses('<img src="/covers/this-post-2.png?v=1"/>', SITE, 'this-post')).toBe(
      '<img src="https://site.example/covers/this-post-2.png?v=1"/>',
    );
  });

  it('leaves text alone, even text that reads like an attribute (React escapes its quotes)', () => {
    const html = '<p>write src=&quot;/x&quot; or href= "/y"</p>';
    expect(siteAddresses(html, SITE, 'p')).toBe(html);
  });
});
