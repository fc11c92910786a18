/**
 * Post bodies built to make a parser's scans go quadratic (openers without closers, nested openers, long runs), each
 * about `size` characters long: the markdown test bounds the parser's work on them, `pnpm bench` times them.
 */
const SHAPES: { label: string; head?: string; unit: string; tail?: string }[] = [
  { label: 'unclosed links', unit: '<a href="/x">' },
  { label: 'bold markers, one unmatched', unit: '**', tail: '*' },
  { label: 'link openers, one closed', unit: '[', tail: 'a](/x)' },
  { label: 'unfinished markdown links', unit: '[a](' },
  { label: 'unclosed strong tags', unit: '<strong>' },
  { label: 'unfinished anchor tags', unit: '<a href="' },
  { label: 'paragraphs', unit: 'word '.repeat(40) + '\n\n' },
  { label: 'list items with markup', unit: '- item **bold** [l](/l)\n' },
  { label: 'an unclosed code fence', head: '```\n', unit: 'x\n' },
];

export function hostileMarkdown(size: number): { label: string; text: string }[] {
  return SHAPES.map(({ label, head = '', unit, tail = '' }) => ({
    label,
    text: head + unit.repeat(Math.ceil((size - head.length - tail.length) / unit.length)) + tail,
  }));
}
