import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DB } from '../db/connection';
import type { BlogPostDoc } from '@aitools/contracts/blog';
import {
  COVER_WIDTHS,
  IMAGE_FORMATS,
  imageVersion,
  type CoverWidth,
  type ImageFormat,
  type ImageKind,
  type ImageSubject,
} from '@aitools/contracts/images';
import { getTool, listToolSummaries } from '../tools/repository';
import { DEFAULT_QUERY, queryTools } from '@aitools/contracts/toolQuery';
import { getPostForPreview, getPublishedPost, listPublishedPosts } from '../blog/repository';
import type { Card } from './render';
import { drawCard, type DrawingKind } from './drawing';
import { logoKeyOf, logoTileSvg, type LogoEntry } from '../tools/logos';

/** Tools whose pictures are drawn ahead of any request: a large catalogue's others are drawn when first asked for
 *  (once each, off the event loop) rather than keeping a core busy for many minutes after every start. */
export const WARM_TOOLS = 500;

/** The directory's two spellings of a category (docs/product.md, Tool data): "AI Tools" is AI Assistants, "MCP" is MCP Servers. */
function toolCategory(category: string | undefined): string | undefined {
  if (category === 'AI Tools') return 'AI Assistants';
  if (category === 'MCP') return 'MCP Servers';
  return category;
}

interface Picture {
  subject: ImageSubject;
  card: Card;
}

/** Which copy of a picture: a cover also comes in narrower copies (`width`) and as WebP. */
export interface ImageCopy {
  width?: CoverWidth;
  format?: ImageFormat;
}

export interface ImageService {
  /** A tool's or post's picture (generated once per version and copy, then read from disk), or null; a copy only
   *  covers have (a width, WebP) is null for the others. */
  image(kind: ImageKind, slug: string, copy?: ImageCopy): Promise<{ bytes: Buffer; version: string } | null>;
  /** Generates the missing pictures most likely asked for first, one at a time and at the lowest CPU priority (the
   *  covers' WebP copies at the process's: drawing.ts): the posts' (their covers are on the blog's pages), then the most
   *  popular tools' (started after the seed). */
  warm(): Promise<number>;
  /** The cover of any post, published or not, drawn for this request alone: never written to the files a public
   *  answer is read from (for signed previews and the console's editors only; docs/operations.md, Editing content). */
  unpublishedCover(slug: string, copy?: ImageCopy): Promise<Buffer | null>;
}

/**
 * Generated pictures are files named by what they show (`<kind>/<slug>-<version>.<png|webp>` under `cacheDir`): a
 * changed title or category makes a new file, an unchanged one is never rendered again, even across restarts.
 */
export function createImageService({
  db,
  cacheDir,
  logos,
}: {
  db: DB;
  cacheDir: string;
  logos: Map<string, LogoEntry>;
}): ImageService {
  const inFlight = new Map<string, Promise<Buffer>>();

  async function picture(kind: ImageKind, slug: string): Promise<Picture | null> {
    if (kind === 'tool-social') {
      const tool = await getTool(db, slug);
      if (!tool) return null;
      const category = toolCategory(tool.category);
      // The tool's own logo, named by its first slug (logoKeyOf), not whatever tool has that slug now.
      const key = logoKeyOf(tool.logo);
      const logo = key === undefined ? undefined : logos.get(key);
      return {
        subject: { slug, title: tool.name, category: tool.category },
        card: {
          title: tool.name,
          category,
          label: category === 'MCP Servers' ? 'MCP Server' : 'AI Tool',
          logoSvg: logo && logoTileSvg(logo),
          size: 'social',
        },
      };
    }
    return postPicture(kind, await getPublishedPost(db, slug));
  }

  function postPicture(kind: ImageKind, post: BlogPostDoc | null): Picture | null {
    if (!post) return null;
    const { slug } = post;
    return {
      subject: { slug, title: post.title, category: post.category },
      card: {
        title: post.title,
        category: post.category,
        label: 'Blog',
        size: kind === 'post-cover' ? 'cover' : 'social',
      },
    };
  }

  async function generate(
    kind: ImageKind,
    { subject, card }: Picture,
    { width, format = 'png' }: ImageCopy,
    drawing: DrawingKind,
  ): Promise<{ bytes: Buffer; version: string }> {
    // The logo is part of what a tool's picture shows, so it is part of its version too.
    const version =
      imageVersion(kind, subject) +
      (card.logoSvg ? `-${imageVersion(kind, { ...subject, title: card.logoSvg })}` : '') +
      (width ? `-w${width}` : '');
    const dir = join(cacheDir, kind);
    const file = join(dir, `${subject.slug}-${version}.${format}`);
    if (existsSync(file)) return { bytes: readFileSync(file), version: imageVersion(kind, subject) };
    // A visitor asking for a picture the warm-up is drawing waits for that drawing rather than starting another.
    let job = inFlight.get(file);
    if (!job) {
      job = drawCard(card, { width, format }, drawing).then((bytes) => {
        mkdirSync(dir, { recursive: true });
        // Written whole under another name, then renamed: a reader never sees half a file.
        const tmp = `${file}.${process.pid}.tmp`;
        writeFileSync(tmp, bytes);
        renameSync(tmp, file);
        return bytes;
      });
      inFlight.set(file, job);
      job.finally(() => inFlight.delete(file)).catch(() => {});
    }
    return { bytes: await job, version: imageVersion(kind, subject) };
  }

  return {
    async image(kind, slug, copy = {}) {
      if ((copy.width || copy.format === 'webp') && kind !== 'post-cover') return null;
      const p = await picture(kind, slug);
      return p ? generate(kind, p, copy, 'visitor') : null;
    },
    async warm() {
      // The query's popularity order, kept with the list for the directory's own queries: not sorted again here.
      const tools = queryTools(await listToolSummaries(db), { ...DEFAULT_QUERY, size: WARM_TOOLS }).tools;
      // Every copy of a cover: the blog's pages link each width in both formats.
      const coverCopies = IMAGE_FORMATS.flatMap((format) =>
        [...COVER_WIDTHS, undefined].map((width): ImageCopy => ({ width, format })),
      );
      const jobs: [ImageKind, string, ImageCopy?][] = [
        ...(await listPublishedPosts(db)).flatMap((p): [ImageKind, string, ImageCopy?][] => [
          ...coverCopies.map((copy): [ImageKind, string, ImageCopy] => ['post-cover', p.slug, copy]),
          ['post-social', p.slug],
        ]),
        ...tools.map((t): [ImageKind, string] => ['tool-social', t.slug]),
      ];
      for (const [kind, slug, copy] of jobs) {
        const p = await picture(kind, slug);
        // The WebP copies go to a visitor's thread all the same (drawing.ts), a few per post, once.
        if (p) await generate(kind, p, copy ?? {}, 'background');
      }
      return jobs.length;
    },
    async unpublishedCover(slug, copy) {
      const p = postPicture('post-cover', await getPostForPreview(db, slug));
      return p ? drawCard(p.card, copy) : null;
    },
  };
}
