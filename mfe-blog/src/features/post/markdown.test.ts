import { describe, expect, it } from 'vitest';
import { isSafeHref, parseBlocks, parseInline, type Inline } from './markdown';
import { hostileMarkdown } from '../../../test/hostileMarkdown';

const t = (text: string): Inline => ({ type: 'text', text });

describe('parseBlocks', () => {
  it('splits blocks on blank lines into paragraphs', () => {
    expect(parseBlocks('One\n\nTwo\nstill two\n\n\n')).toEqual([
      { type: 'paragraph', children: [t('One')] },
      { type: 'paragraph', children: [t('Two still two')] },
    ]);
  });

  it('reads ##, ### and #### headings, and leaves # and #####  as text', () => {
    expect(parseBlocks('## Two\n\n### Three\n\n#### Four\n\n# One\n\n##### Five')).toEqual([
      { type: 'heading', level: 2, children: [t('Two')] },
      { type: 'heading', level: 3, children: [t('Three')] },
      { type: 'heading', level: 4, children: [t('Four')] },
      { type: 'paragraph', children: [t('# One')] },
      { type: 'paragraph', children: [t('##### Five')] },
    ]);
  });

  it('reads a heading directly followed by a paragraph in the same block', () => {
    expect(parseBlocks('## Title\nBody text')).toEqual([
      { type: 'heading', level: 2, children: [t('Title')] },
      { type: 'paragraph', children: [t('Body text')] },
    ]);
  });

  it('reads bullet lists and numbered lists, keeping the first number', () => {
    expect(parseBlocks('- a\n- **b**\n\n1. one\n2. two\n\n3. three')).toEqual([
      { type: 'list', ordered: false, start: 1, items: [[t('a')], [{ type: 'strong', children: [t('b')] }]] },
      { type: 'list', ordered: true, start: 1, items: [[t('one')], [t('two')]] },
      { type: 'list', ordered: true, start: 3, items: [[t('three')]] },
    ]);
  });

  it('splits a paragraph from a list that follows it without a blank line', () => {
    expect(parseBlocks('Checks:\n- one\n- two')).toEqual([
      { type: 'paragraph', children: [t('Checks:')] },
      { type: 'list', ordered: false, start: 1, items: [[t('one')], [t('two')]] },
    ]);
  });

  it('keeps fenced code verbatim, blank lines and markup included', () => {
    const src = 'Before\n```bash\n# macOS\nwhich npx\n\n**not bold** <a href="/x">x</a>\n```\nAfter';
    expect(parseBlocks(src)).toEqual([
      { type: 'paragraph', children: [t('Before')] },
      { type: 'code', lang: 'bash', text: '# macOS\nwhich npx\n\n**not bold** <a href="/x">x</a>' },
      { type: 'paragraph', children: [t('After')] },
    ]);
  });

  it('runs an unclosed fence to the end, and accepts Windows line endings', () => {
    expect(parseBlocks('```\ncode\r\n\r\nmore')).toEqual([{ type: 'code', lang: '', text: 'code\n\nmore' }]);
  });
});

describe('parseInline', () => {
  it('reads markdown links, site paths and external addresses alike', () => {
    expect(parseInline('See [the docs](https://example.com/a_b) and [home](/).')).toEqual([
      t('See '),
      { type: 'link', href: 'https://example.com/a_b', children: [t('the docs')] },
      t(' and '),
      { type: 'link', href: '/', children: [t('home')] },
      t('.'),
    ]);
  });

  it('reads bold links, bold text and strong tags', () => {
    expect(parseInline('**[MQTT](https://mqtt.org)** is **fast** and <strong>light</strong>')).toEqual([
      { type: 'strong', children: [{ type: 'link', href: 'https://mqtt.org', children: [t('MQTT')] }] },
      t(' is '),
      { type: 'strong', children: [t('fast')] },
      t(' and '),
      { type: 'strong', children: [t('light')] },
    ]);
  });

  it('reads HTML anchors (case-insensitive, extra attributes ignored) with bold inside', () => {
    expect(
      parseInline('Read <A HREF="https://arxiv.org/abs/1706.03762" class="x">the <strong>paper</strong></a>!'),
    ).toEqual([
      t('Read '),
      {
        type: 'link',
        href: 'https://arxiv.org/abs/1706.03762',
        children: [t('the '), { type: 'strong', children: [t('paper')] }],
      },
      t('!'),
    ]);
    expect(parseInline("<a href='mailto:hi@example.com'>mail</a>")).toEqual([
      { type: 'link', href: 'mailto:hi@example.com', children: [t('mail')] },
    ]);
  });

  it('shows every other tag as text', () => {
    expect(parseInline('<script>alert(1)</script><img src=x onerror=alert(1)><em>e</em>')).toEqual([
      t('<script>alert(1)</script><img src=x onerror=alert(1)><em>e</em>'),
    ]);
  });

  it('renders links with unsafe addresses as their text only', () => {
    for (const href of [
      'javascript:alert%281%29',
      'JaVaScRiPt:void0',
      'data:text/html,x',
      '//evil.example',
      '/\\evil.example',
      'vbscript:x',
      'relative/path',
      'ftp://x',
    ]) {
      expect(parseInline(`[click](${href})`), href).toEqual([t('click')]);
      expect(parseInline(`<a href="${href}">click</a>`), href).toEqual([t('click')]);
    }
    // With parentheses in the address the markdown form is not even read as a link.
    expect(parseInline('[click](javascript:alert(1))')).toEqual([t('[click](javascript:alert(1))')]);
  });

  it('keeps unbalanced markup as text', () => {
    expect(parseInline('a ** b')).toEqual([t('a ** b')]);
    expect(parseInline('**a** b **')).toEqual([{ type: 'strong', children: [t('a')] }, t(' b **')]);
    expect(parseInline('<a href="/x">no close')).toEqual([t('<a href="/x">no close')]);
    expect(parseInline('<strong>open')).toEqual([t('<strong>open')]);
    expect(parseInline('[text](no close')).toEqual([t('[text](no close')]);
    expect(parseInline('[text] (/x)')).toEqual([t('[text] (/x)')]);
    expect(parseInline('****')).toEqual([t('****')]);
  });

  it('never nests a link inside a link', () => {
    const nodes = parseInline('<a href="/a">x [y](/b) z</a>');
    expect(nodes).toEqual([{ type: 'link', href: '/a', children: [t('x [y](/b) z')] }]);
  });

  it('gives an empty link its address as text', () => {
    expect(parseInline('[](/blog)')).toEqual([{ type: 'link', href: '/blog', children: [t('/blog')] }]);
  });
});

describe('isSafeHref', () => {
  it('allows http(s), mailto and site paths only', () => {
    expect(['https://a.b', 'http://a.b', 'mailto:x@y.z', '/', '/blog/x'].every(isSafeHref)).toBe(true);
    expect(['javascript:x', '//a.b', '/\\a', '', 'https://', 'tel:1', '#top'].some(isSafeHref)).toBe(false);
  });
});

/** Every href in a tree, and the whole text, for the fuzz checks. */
function walk(
  nodes: Inline[],
  hrefs: string[] = [],
  depth = 0,
  inLink = false,
): { hrefs: string[]; text: string; maxDepth: number } {
  let text = '';
  let maxDepth = depth;
  for (const n of nodes) {
    if (n.type === 'text') text += n.text;
    else {
      if (n.type === 'link') {
        expect(inLink, 'a link inside a link').toBe(false);
        hrefs.push(n.href);
      }
      const r = walk(n.children, hrefs, depth + 1, inLink || n.type === 'link');
      text += r.text;
      maxDepth = Math.max(maxDepth, r.maxDepth);
    }
  }
  return { hrefs, text, maxDepth };
}

function seeded(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

/**
 * The characters the parser's scans pass over during `fn`: each regular-expression run from where it starts to the
 * end of its match (to the end of the text when it finds none; 1 for a sticky one that fails at once), and each
 * lastIndexOf from where it starts back to what it finds. Patched for this one synchronous call only.
 */
function scannedBy(fn: () => void): number {
  const { exec } = RegExp.prototype;
  const { lastIndexOf } = String.prototype;
  let scanned = 0;
  RegExp.prototype.exec = function (this: RegExp, text: string) {
    const from = this.global || this.sticky ? this.lastIndex : 0;
    const match = exec.call(this, text);
    scanned += 1 + (match ? match.index + match[0].length - from : this.sticky ? 0 : text.length - from);
    return match;
  };
  String.prototype.lastIndexOf = function (this: string, search: string, position?: number) {
    const at = lastIndexOf.call(this, search, position);
    scanned += 1 + Math.min(position ?? this.length, this.length) - Math.max(at, 0);
    return at;
  } as typeof String.prototype.lastIndexOf;
  try {
    fn();
  } finally {
    RegExp.prototype.exec = exec;
    String.prototype.lastIndexOf = lastIndexOf;
  }
  return scanned;
}

const PIECES = [
  '**',
  '*',
  '[',
  ']',
  '(',
  ')',
  '](',
  '<a href="',
  '<a href="/ok">',
  '</a>',
  '<strong>',
  '</strong>',
  '<script>',
  'javascript:alert(1)',
  '//evil',
  '/x',
  'https://ok.example',
  '"',
  '>',
  '<',
  ' ',
  '\n',
  '\n\n',
  '```',
  '- ',
  '1. ',
  '## ',
  'text',
  'é',
  '\u2028',
];

describe('fuzz', () => {
  it('parses 3,000 random strings without throwing; every link is safe and unnested', () => {
    const rand = seeded(42);
    for (let n = 0; n < 3000; n++) {
      let s = '';
      const len = Math.floor(rand() * 40);
      for (let i = 0; i < len; i++) s += PIECES[Math.floor(rand() * PIECES.length)];
      const blocks = parseBlocks(s);
      for (const b of blocks) {
        const inlines = b.type === 'code' ? [] : b.type === 'list' ? b.items.flat() : b.children;
        const { hrefs } = walk(inlines);
        for (const h of hrefs) expect(isSafeHref(h), `${JSON.stringify(s)} -> ${h}`).toBe(true);
      }
    }
  });

  it('keeps all text when no markup is recognised', () => {
    const rand = seeded(7);
    const plain = ['a', 'b', ' ', '<', '>', '*', '(', ')', ']'].filter((c) => c !== '*').concat(['* ']);
    for (let n = 0; n < 500; n++) {
      let s = 'x';
      for (let i = 0; i < 30; i++) s += plain[Math.floor(rand() * plain.length)];
      const out = parseInline(s);
      expect(walk(out).text.replace(/\s+/g, ' ')).toBe(s.replace(/\s+/g, ' '));
    }
  });

  // Work counted in characters scanned, not timed (the timings are a figure of `pnpm bench`): each input twice as long
  // costs twice the work, and a bounded amount per character.
  it('scans hostile inputs in linear work: double the input, double the characters scanned', () => {
    const small = hostileMarkdown(100_000);
    const large = hostileMarkdown(200_000);
    small.forEach(({ label, text }, i) => {
      const work = scannedBy(() => parseBlocks(text));
      const doubled = scannedBy(() => parseBlocks(large[i]!.text));
      expect(work, label).toBeLessThanOrEqual(16 * text.length);
      expect(doubled / work, label).toBeLessThanOrEqual(2.05 * (large[i]!.text.length / text.length));
    });
  });
});
