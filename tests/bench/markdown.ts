/**
 * The blog's markdown parser on hostile post bodies of 1 MB (the shapes its test bounds in characters scanned):
 * the median time per body of each shape, in process. A figure only.
 */
import { parseBlocks } from '../../mfe-blog/src/features/post/markdown';
import { hostileMarkdown } from '../../mfe-blog/test/hostileMarkdown';
import { summarize } from './stats';

export function markdownTimes(size = 1_000_000, runs = 5): { label: string; median: number }[] {
  return hostileMarkdown(size).map(({ label, text }) => {
    parseBlocks(text); // warm-up: the JIT
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      parseBlocks(text);
      samples.push(performance.now() - started);
    }
    return { label, median: summarize(samples).median };
  });
}
