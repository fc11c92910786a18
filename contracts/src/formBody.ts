/**
 * Reading a form post's body, the same in the browser and on the server: the two encodings a browser sends
 * (urlencoded, and multipart for enctype="multipart/form-data") are read; anything else, and text that is not
 * UTF-8 or holds a bad percent-escape, is refused with a status and a reason instead of being guessed at.
 * Pure TypeScript: bundled into the browser with the forms.
 */

export const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'] as const;

export type FormBody = { ok: true; fields: Map<string, string> } | { ok: false; status: 400 | 415; reason: string };

export const UNSUPPORTED_FORM =
  'This form can only be sent as a web form (URL-encoded or multipart). Please fill it in and send it again.';
export const UNREADABLE_FORM =
  'This form could not be read: what was sent was damaged or badly encoded. Please fill it in and send it again.';

/** The media type without its parameters, lowercased ("multipart/form-data"). */
export function mediaType(contentType: string | null | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Text only when every byte is valid UTF-8 (a decoder would otherwise put U+FFFD in place of bad bytes). */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** application/x-www-form-urlencoded, strictly: a % starts exactly two hex digits, and the decoded bytes are UTF-8. */
function parseUrlEncoded(text: string): Map<string, string> | null {
  const fields = new Map<string, string>();
  for (const pair of text.split('&')) {
    if (!pair) continue;
    const at = pair.indexOf('=');
    const [rawName, rawValue] = at < 0 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
    try {
      // decodeURIComponent throws on a bad escape (%ZZ, a lone %) and on escapes that are not UTF-8 (%FF).
      const name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      if (!fields.has(name)) fields.set(name, decodeURIComponent(rawValue.replace(/\+/g, ' ')));
    } catch {
      return null;
    }
  }
  return fields;
}

/** The text fields of a form post (the first value of each name; files are ignored), or why it was refused. */
export async function readFormBody(request: Request): Promise<FormBody> {
  const contentType = request.headers.get('content-type');
  const type = mediaType(contentType);
  if (!(FORM_TYPES as readonly string[]).includes(type)) return { ok: false, status: 415, reason: UNSUPPORTED_FORM };
  const bytes = new Uint8Array(await request.arrayBuffer());
  // Both encodings are text end to end (the forms have no file field), so the whole body must be UTF-8.
  const text = decodeUtf8(bytes);
  if (text === null) return { ok: false, status: 400, reason: UNREADABLE_FORM };
  if (type === FORM_TYPES[0]) {
    const fields = parseUrlEncoded(text);
    return fields ? { ok: true, fields } : { ok: false, status: 400, reason: UNREADABLE_FORM };
  }
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { 'content-type': contentType! } }).formData();
  } catch {
    return { ok: false, status: 400, reason: UNREADABLE_FORM };
  }
  const fields = new Map<string, string>();
  for (const [name, value] of form) if (typeof value === 'string' && !fields.has(name)) fields.set(name, value);
  return { ok: true, fields };
}
