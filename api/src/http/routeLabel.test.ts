import { describe, expect, it } from 'vitest';
import { routeLabel } from './routeLabel';

/** Address as it arrived, and the label it is counted under. */
const LABELS: [string, string][] = [
  // A page: its route's pattern, whatever its query or letter case (pages match case-insensitively).
  ['/', '/'],
  ['/?search=github&page=2', '/'],
  ['/tool/chatgpt', '/tool/:slug'],
  ['/Tool/ChatGPT', '/tool/:slug'],
  ['/blog/what-is-model-context-protocol-mcp', '/blog/:slug'],
  ['/privacy', '/privacy'],
  // The API by its first two segments; the site's other files by their first.
  ['/api/tools', '/api/tools'],
  ['/api/tools/chatgpt?x=1', '/api/tools'],
  ['/api/blog/public/posts', '/api/blog'],
  ['/api/made-up', '/api/*'],
  ['/assets/index-abc.js', '/assets'],
  ['/og/tool/chatgpt.png', '/og'],
  ['/v0.1/servers', '/v0.1'],
  // Anything else under one label, so made-up addresses make no new series.
  ['/wp-admin/setup.php', 'other'],
  ['/tool/a/b', 'other'],
  ['/API/tools', 'other'],
];

describe('routeLabel', () => {
  it.each(LABELS)('counts %s under %s', (url, label) => {
    expect(routeLabel(url)).toBe(label);
  });
});
