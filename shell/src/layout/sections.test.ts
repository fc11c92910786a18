import { describe, expect, it } from 'vitest';
import { currentSection, MAIN_SECTIONS } from './sections';

describe('main sections', () => {
  it('lists the directory, MCP servers, the blog and submitting a tool', () => {
    expect(MAIN_SECTIONS.map((s) => s.to)).toEqual(['/', '/?type=mcp-servers', '/blog', '/submit']);
  });

  it('marks the section the visitor is in', () => {
    expect(currentSection('/', '')).toEqual({ to: '/', current: 'page' });
    expect(currentSection('/', '?category=Development')).toEqual({ to: '/', current: 'page' });
    expect(currentSection('/', '?type=mcp-servers&page=2')).toEqual({ to: '/?type=mcp-servers', current: 'page' });
    expect(currentSection('/blog', '?page=2')).toEqual({ to: '/blog', current: 'page' });
    expect(currentSection('/blog/some-post', '')).toEqual({ to: '/blog', current: 'true' });
    expect(currentSection('/submit', '')).toEqual({ to: '/submit', current: 'page' });
    expect(currentSection('/tool/cursor', '')).toBeNull();
    expect(currentSection('/privacy', '')).toBeNull();
  });
});
