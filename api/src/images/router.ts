import { Router, type Request, type Response } from 'express';
import { coverWidthOf, isImageFormat, logoWidthOf, type ImageKind } from '@aitools/contracts/images';
import { drawLogo } from './drawing';
import { logoTileSvg, type LogoEntry } from '../tools/logos';
import type { ImageService } from './service';
import type { Logger } from 'pino';
import type { PostPreviews } from '../blog/preview';
import { NO_STORE } from '../edge/headers';

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** An address with an old or missing ?v= still gets the current picture, but only for an hour. */
const SHORT = 'public, max-age=3600';
/** Public pictures may be shown by other origins (the console's live preview of a post, docs/operations.md). */
const SHOWN_ANYWHERE = { 'Cross-Origin-Resource-Policy': 'cross-origin' };
const SLUG_FILE = /^([a-z0-9][a-z0-9-]{0,120})\.(png|svg|webp)$/;

function fileOf(file: string): { slug: string; ext: string } | null {
  const m = SLUG_FILE.exec(file);
  return m ? { slug: m[1]!, ext: m[2]! } : null;
}

/** /logos/<slug>.svg or .webp (also `?w=48|96|144|240`), /og/tool/<slug>.png, /og/blog/<slug>.png and
 *  /covers/<slug>.png or .webp (also `?w=400|800`). An unpublished post's cover is drawn only for a request holding
 *  that post's signed preview (blog/preview.ts), and kept by no one; for anyone else it does not exist. */
export function imagesRouter({
  images,
  logos,
  logger,
  previews,
}: {
  images: ImageService;
  logos: Map<string, LogoEntry>;
  logger: Logger;
  previews?: PostPreviews;
}): Router {
  const router = Router();
  const logoSvgs = new Map([...logos].map(([slug, entry]) => [slug, logoTileSvg(entry)]));

  // Each logo's WebP copies, drawn once per width on first request: at most logos × LOGO_WIDTHS entries of 0.6-2.5 kB
  // (docs/performance.md, "Logos as WebP").
  const logoWebps = new Map<string, Promise<Buffer>>();
  const logoWebp = (slug: string, svg: string, width: number) => {
    const key = `${slug} ${width}`;
    let bytes = logoWebps.get(key);
    if (!bytes) {
      bytes = drawLogo(svg, width);
      logoWebps.set(key, bytes);
      bytes.catch(() => logoWebps.delete(key));
    }
    return bytes;
  };

  router.get('/logos/:file', async (req, res) => {
    const file = fileOf(req.params.file);
    const svg = file ? logoSvgs.get(file.slug) : undefined;
    if (!file || !svg) return void res.sendStatus(404);
    const headers = { ...SHOWN_ANYWHERE, 'Cache-Control': req.query.v ? IMMUTABLE : SHORT };
    if (file.ext === 'svg') return void res.set(headers).type('image/svg+xml').send(svg);
    const width = logoWidthOf(req.query.w);
    if (file.ext !== 'webp' || width === null) return void res.sendStatus(404);
    try {
      res
        .set(headers)
        .type('webp')
        .send(await logoWebp(file.slug, svg, width));
    } catch (err) {
      logger.error({ err, slug: file.slug, width }, 'logo drawing failed');
      res.sendStatus(500);
    }
  });

  // Social previews are PNG only; a format or width a picture lacks is a 404 (ImageService.image).
  const serveImage = (kind: ImageKind) => async (req: Request, res: Response) => {
    const file = fileOf(String(req.params.file));
    const width = coverWidthOf(req.query.w);
    if (!file || !isImageFormat(file.ext) || width === null) return void res.sendStatus(404);
    const { slug, ext: format } = file;
    try {
      const found = await images.image(kind, slug, { width, format });
      if (!found && kind === 'post-cover' && previews?.of(req)?.slug === slug) {
        const bytes = await images.unpublishedCover(slug, { width, format });
        if (bytes)
          return void res.set({ 'Cache-Control': NO_STORE, 'X-Robots-Tag': 'noindex' }).type(format).send(bytes);
      }
      if (!found) return void res.sendStatus(404);
      res
        .set({ ...SHOWN_ANYWHERE, 'Cache-Control': req.query.v === found.version ? IMMUTABLE : SHORT })
        .type(format)
        .send(found.bytes);
    } catch (err) {
      logger.error({ err, kind, slug }, 'image generation failed');
      res.sendStatus(500);
    }
  };
  router.get('/og/tool/:file', serveImage('tool-social'));
  router.get('/og/blog/:file', serveImage('post-social'));
  router.get('/covers/:file', serveImage('post-cover'));
  return router;
}
