import { describe, expect, it } from 'vitest';
import { routeLabel } from './routeLabel';

describe('routeLabel', () => {
  it("names a page by its route's pattern, whatever its query", () => {
    expect(routeLabel('/')).toBe('/');
    expect(routeLabel('/?search=github&page=2')).toBe('/');
    expect(routeLabel('/tool/chatgpt')).toBe('/tool/:slug');
    expect(routeLabel('/Tool/ChatGPT')).toBe('/tool/:slug');
    expect(routeLabel('/blog/what-is-model-context-protocol-mcp')).toBe('/blog/:slug');
    expect(routeLabel('/privacy')).toBe('/privacy');
  });

  it("names the API by its first two segments, and the site's other files by their first", () => {
    expect(routeLabel('/api/tools')).toBe('/api/tools');
    expect(routeLabel('/api/tools/chatgpt?x=1')).toBe('/api/tools');
    expect(routeLabel('/api/blog/public/posts')).toBe('/api/blog');
    expect(routeLabel('/api/made-up')).toBe('/api/*');
    expect(routeLabel('/assets/index-abc.js')).toBe('/assets');
    expect(routeLabel('/og/tool/chatgpt.png')).toBe('/og');
    expect(routeLabel('/v0.1/servers')).toBe('/v0.1');
  });

  it('puts every other address under one label, so made-up addresses make no new series', () => {
    expect(routeLabel('/wp-admin/setup.php')).toBe('other');
    expect(routeLabel('/tool/a/b')).toBe('other');
    expect(routeLabel('/API/tools')).toBe('other');
  });
});
