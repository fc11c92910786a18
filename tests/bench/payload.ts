/** What a page weighs as HTML: the whole document gzipped, and the page state inlined for hydration. */
import { gzipSync } from 'node:zlib';

export interface Payload {
  html: number;
  htmlGzip: number;
  /** bytes of script#__PAGE_STATE__'s text (router hydration data, releases, config), and gzipped */
  state: number;
  stateGzip: number;
}

/** Sizes of `url`'s HTML. gzip at zlib's default level, as the server's compression middleware sends it. */
export async function pagePayload(url: string): Promise<Payload> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  const html = Buffer.from(await res.arrayBuffer());
  const state = Buffer.from(
    /<script[^>]*\bid="__PAGE_STATE__"[^>]*>([\s\S]*?)<\/script>/.exec(html.toString('utf8'))?.[1] ?? '',
  );
  return { html: html.length, htmlGzip: gzipSync(html).length, state: state.length, stateGzip: gzipSync(state).length };
}
