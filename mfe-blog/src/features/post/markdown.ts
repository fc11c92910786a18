/**
 * The post body format (docs/product.md, Post body): a small markdown subset parsed into a tree that React renders as
 * elements. Nothing here produces HTML, so no input can inject markup. Every scan is linear-time.
 */

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'strong'; children: Inline[] }
  | { type: 'link'; href: string; children: Inline[] };

export type Block =
  | { type: 'heading'; level: 2 | 3 | 4; children: Inline[] }
  | { type: 'code'; lang: string; text: string }
  | { type: 'list'; ordered: boolean; start: number; items: Inline[][] }
  | { type: 'paragraph'; children: Inline[] };

const FENCE = /^```\s*([\w+-]*)/;
const HEADING = /^(#{2,4}) (.*)$/;
const BULLET = /^- (.*)$/;
const NUMBERED = /^(\d{1,9})\. (.*)$/;

/** Blocks are separated by blank lines; a fenced code block runs to its closing fence, blank lines included. */
export function parseBlocks(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let group: string[] = [];
  const flush = () => {
    if (group.length) blocks.push(...groupBlocks(group));
    group = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const fence = FENCE.exec(lines[i]);
    if (fence) {
      flush();
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i].startsWith('```'); i++) body.push(lines[i]);
      blocks.push({ type: 'code', lang: fence[1], text: body.join('\n') });
    } else if (lines[i].trim() === '') {
      flush();
    } else {
      group.push(lines[i]);
    }
  }
  flush();
  return blocks;
}

/** One blank-line-separated group: heading lines, runs of "- " lines, runs of "N. " lines, and paragraphs. */
function groupBlocks(lines: string[]): Block[] {
  const out: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const heading = HEADING.exec(lines[i]);
    if (heading) {
      out.push({ type: 'heading', level: heading[1].length as 2 | 3 | 4, children: parseInline(heading[2].trim()) });
      i++;
      continue;
    }
    const ordered = NUMBERED.test(lines[i]);
    if (ordered || BULLET.test(lines[i])) {
      const marker = ordered ? NUMBERED : BULLET;
      const start = ordered ? Number(NUMBERED.exec(lines[i])![1]) : 1;
      const items: Inline[][] = [];
      for (let m = marker.exec(lines[i]); m; m = i < lines.length ? marker.exec(lines[i]) : null) {
        items.push(parseInline(m[m.length - 1].trim()));
        i++;
      }
      out.push({ type: 'list', ordered, start, items });
    } else {
      const text: string[] = [];
      while (i < lines.length && !HEADING.test(lines[i]) && !BULLET.test(lines[i]) && !NUMBERED.test(lines[i]))
        text.push(lines[i++].trim());
      out.push({ type: 'paragraph', children: parseInline(text.join(' ')) });
    }
  }
  return out;
}

/** Addresses a link may have: http(s), mailto, or a path on this site ("/x", never "//x" or "/\x"). */
export function isSafeHref(href: string): boolean {
  return /^https?:\/\/[^\s]/i.test(href) || /^mailto:[^\s]/i.test(href) || /^\/(?![/\\])/.test(href);
}

export function isSitePath(href: string): boolean {
  return /^\/(?![/\\])/.test(href);
}

const MAX_LINK_TEXT = 1000;
/** Addresses are at most 2,048 characters and link texts 1,000: bounded scans keep hostile input linear. */
const ANCHOR_OPEN = /<a\s+href\s*=\s*(["'])([^"'<>\s]{0,2048})\1[^<>]{0,256}>/iy;
const STRONG_OPEN = /<strong>/iy;
const MD_HREF = /\]\(([^\s()<>]{1,2048})\)/y;
const SPECIAL = /[*<[]/g;

/**
 * First index of `needle` at or after `from` (which only grows within one parse). The answer is remembered, so
 * repeated searches, one per unclosed opener, stay linear: the first hit after `from` is also the first after any
 * later start that does not pass it, and "none" stays "none".
 */
function finder(text: string) {
  const memo = new Map<string, number>();
  const patterns = new Map<string, RegExp>();
  return (needle: string, from: number, ignoreCase = false): number => {
    const key = `${ignoreCase ? 'i' : 's'}${needle}`;
    const known = memo.get(key);
    if (known !== undefined && (known === -1 || known >= from)) return known;
    let re = patterns.get(key);
    if (!re)
      patterns.set(key, (re = new RegExp(needle.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), ignoreCase ? 'gi' : 'g')));
    re.lastIndex = from;
    const at = re.exec(text)?.index ?? -1;
    memo.set(key, at);
    return at;
  };
}

/**
 * Inline forms: <a href="...">text</a>, [text](href), **bold** (which may hold a link: **[text](href)**) and
 * <strong>text</strong>. Anything else, including other tags and unbalanced markers, stays literal text.
 * Links never nest inside links.
 */
export function parseInline(text: string, allowLinks = true): Inline[] {
  const out: Inline[] = [];
  const find = finder(text);
  let buffer = '';
  let i = 0;
  const pushText = (s: string) => {
    buffer += s;
  };
  const flushText = () => {
    if (buffer) out.push({ type: 'text', text: buffer });
    buffer = '';
  };
  const pushLink = (href: string, inner: string) => {
    const children = parseInline(inner, false);
    if (!isSafeHref(href)) {
      // An address we do not allow: the visitor sees the link's text, not a link.
      flushText();
      out.push(...children);
      return;
    }
    flushText();
    out.push({ type: 'link', href, children: children.length ? children : [{ type: 'text', text: href }] });
  };

  while (i < text.length) {
    SPECIAL.lastIndex = i;
    const hit = SPECIAL.exec(text);
    if (!hit) {
      pushText(text.slice(i));
      break;
    }
    pushText(text.slice(i, hit.index));
    i = hit.index;
    const ch = text[i];

    if (ch === '*' && text[i + 1] === '*') {
      const close = find('**', i + 2);
      if (close > i + 2) {
        flushText();
        out.push({ type: 'strong', children: parseInline(text.slice(i + 2, close), allowLinks) });
        i = close + 2;
        continue;
      }
      pushText('**');
      i += 2;
      continue;
    }

    if (ch === '<') {
      STRONG_OPEN.lastIndex = i;
      if (STRONG_OPEN.test(text)) {
        const close = find('</strong>', STRONG_OPEN.lastIndex, true);
        if (close > STRONG_OPEN.lastIndex) {
          flushText();
          out.push({ type: 'strong', children: parseInline(text.slice(STRONG_OPEN.lastIndex, close), allowLinks) });
          i = close + '</strong>'.length;
          continue;
        }
      }
      if (allowLinks) {
        ANCHOR_OPEN.lastIndex = i;
        const open = ANCHOR_OPEN.exec(text);
        if (open) {
          const close = find('</a>', ANCHOR_OPEN.lastIndex, true);
          if (close >= 0) {
            pushLink(open[2], text.slice(ANCHOR_OPEN.lastIndex, close));
            i = close + '</a>'.length;
            continue;
          }
        }
      }
    }

    if (ch === '[' && allowLinks) {
      const mid = find('](', i + 1);
      // The link text is short and may not itself open another link.
      if (mid > i && mid - i <= MAX_LINK_TEXT && text.lastIndexOf('[', mid - 1) === i) {
        MD_HREF.lastIndex = mid;
        const target = MD_HREF.exec(text);
        if (target) {
          pushLink(target[1], text.slice(i + 1, mid));
          i = MD_HREF.lastIndex;
          continue;
        }
      }
    }

    pushText(ch);
    i++;
  }
  flushText();
  return out;
}
