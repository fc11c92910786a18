export const LINK_COPIED = 'Link copied to clipboard!';

/** Device share when present, otherwise copy the link and alert (docs/product.md, Tool detail: Share; also on a blog post). */
export async function shareOrCopy(data: { title?: string; text?: string; url: string }): Promise<'shared' | 'copied'> {
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share(data);
      return 'shared';
    } catch (err) {
      if ((err as Error)?.name === 'AbortError') return 'shared';
    }
  }
  try {
    await navigator.clipboard.writeText(data.url);
  } catch (err) {
    console.warn('Clipboard unavailable', err);
  }
  window.alert(LINK_COPIED);
  return 'copied';
}

/** An email that shares a page: where a Share link leads a visitor whose browser runs no script (ShareLink.tsx). */
export function shareMailto(data: { title?: string; text?: string; url: string }): string {
  const body = [data.text, data.url].filter(Boolean).join('\n\n');
  return `mailto:?subject=${encodeURIComponent(data.title ?? '')}&body=${encodeURIComponent(body)}`;
}
