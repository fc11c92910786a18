/** The run-time manifest of remotes, as the server inlines it into each page and serves it at /remotes.json. */
export interface RemoteRelease {
  /** Release id, e.g. "1.0.0-20261123T041500Z-3f2a9c". */
  id: string;
  /** Absolute URL path of the federation entry. */
  entry: string;
  /** Stylesheets of the release, linked before its code runs. */
  css: string[];
}

export type RemoteManifest = Record<string, RemoteRelease>;

const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/** Accepts the manifest JSON, keeps the well-formed entries and drops the rest (a bad entry must not hide the others). */
export function parseManifest(input: unknown): RemoteManifest {
  const out: RemoteManifest = {};
  if (!input || typeof input !== 'object' || Array.isArray(input)) return out;
  for (const [name, value] of Object.entries(input as Record<string, unknown>)) {
    if (!value || typeof value !== 'object') continue;
    const v = value as Record<string, unknown>;
    if (!isString(v.id) || !isString(v.entry)) continue;
    const css = Array.isArray(v.css) ? v.css.filter(isString) : [];
    out[name] = { id: v.id, entry: v.entry, css };
  }
  return out;
}
