/**
 * A release folder uploaded as a gzip tar (the release API): read with node-tar, refused whole at the first entry
 * that is not a plain file or folder inside client/, server/ or release.json, or past the limits. The archive is
 * read twice: once to check every entry (nothing is written), then unpacked into a folder of the caller's that is
 * stored only after the release's own checks pass (store.ts).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Parser, Unpack, type ReadEntry } from 'tar';
import { releaseDraftSchema, type ReleaseDraft } from './manifest';

export interface UploadLimits {
  /** Entries (files and folders) in the archive. */
  maxFiles: number;
  /** Bytes of all files once unpacked. */
  maxBytes: number;
}

export const DEFAULT_UPLOAD_LIMITS: UploadLimits = { maxFiles: 2000, maxBytes: 64 * 1024 * 1024 };

/** A refused upload: `status` is the HTTP answer, the message says what was wrong and what to do. */
export class UploadError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** What a release folder holds at its top. */
const TOP = new Set(['client', 'server', 'release.json']);
const PLAIN_TYPES = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory']);

/** Why an entry may not be unpacked, or null when it may. */
export function entryProblem(entry: Pick<ReadEntry, 'path' | 'type'>): string | null {
  const raw = entry.path;
  if (!PLAIN_TYPES.has(entry.type))
    return `${raw} is a ${entry.type === 'SymbolicLink' ? 'symbolic link' : entry.type === 'Link' ? 'hard link' : `${entry.type} entry`}; a release holds only files and folders`;
  if (raw.startsWith('/') || /^[a-zA-Z]:/.test(raw) || raw.includes('\\')) return `${raw} is an absolute path`;
  if (raw.includes('\0')) return 'an entry name holds a NUL byte';
  const parts = raw.split('/').filter((p) => p && p !== '.');
  if (parts.includes('..')) return `${raw} climbs out of the release folder (..)`;
  if (parts.length && !TOP.has(parts[0]!)) return `${raw} is outside client/, server/ and release.json`;
  return null;
}

export const isGzip = (body: Buffer) => body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b;

/** Runs a node-tar stream over the whole body; resolves when it has read all, rejects with the first problem. */
function feed(stream: Parser | Unpack, body: Buffer, refusal: () => UploadError | null): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      reject(
        refusal() ??
          (err instanceof UploadError
            ? err
            : new UploadError(
                400,
                `The body is not a readable gzip tar (${(err as Error)?.message ?? err}). Pack the release folder with tar -czf.`,
              )),
      );
    };
    stream.on('error', fail);
    stream.on('abort', fail);
    stream.on('close', () => {
      if (settled) return;
      const problem = refusal();
      settled = true;
      if (problem) reject(problem);
      else resolve();
    });
    stream.end(body);
  });
}

/** Checks every entry of the archive without writing anything. */
export async function checkArchive(
  body: Buffer,
  limits: UploadLimits = DEFAULT_UPLOAD_LIMITS,
): Promise<{ files: number; bytes: number }> {
  if (!isGzip(body))
    throw new UploadError(
      400,
      'The body is not gzip. Send the release folder as a gzip tar (tar -czf release.tgz -C <folder> .) with Content-Type: application/gzip.',
    );
  let files = 0;
  let bytes = 0;
  let refused: UploadError | null = null;
  const parser = new Parser({
    strict: true,
    onReadEntry(entry) {
      if (refused) return void entry.resume();
      const problem = entryProblem(entry);
      files += 1;
      bytes += entry.size ?? 0;
      if (problem) refused = new UploadError(400, `Refused: ${problem}. Pack only the built release folder.`);
      else if (files > limits.maxFiles)
        refused = new UploadError(
          413,
          `Refused: the archive holds more than ${limits.maxFiles} entries. A release folder holds its build output only.`,
        );
      else if (bytes > limits.maxBytes)
        refused = new UploadError(
          413,
          `Refused: the files unpack to more than ${limits.maxBytes} bytes. A release folder holds its build output only.`,
        );
      if (refused) parser.abort(refused);
      entry.resume();
    },
  });
  await feed(parser, body, () => refused);
  if (!files)
    throw new UploadError(400, 'The archive is empty. Pack the built release folder (client/, server/, release.json).');
  return { files, bytes };
}

/** Checks the archive, then unpacks it into `into` (a new folder; the caller removes it on any failure). */
export async function unpackArchive(
  body: Buffer,
  into: string,
  limits: UploadLimits = DEFAULT_UPLOAD_LIMITS,
): Promise<void> {
  await checkArchive(body, limits);
  mkdirSync(into, { recursive: true });
  let refused: UploadError | null = null;
  const unpack = new Unpack({
    cwd: into,
    strict: true,
    // Checked above already; kept so that this pass could never write what the first refused.
    filter: (path, entry) => {
      const problem = entryProblem({ path, type: (entry as ReadEntry).type });
      if (problem) refused ??= new UploadError(400, `Refused: ${problem}.`);
      return !problem;
    },
    // A release's files need no owner from the archive.
    preserveOwner: false,
  });
  await feed(unpack, body, () => refused);
}

/** Unpacks an uploaded release of `remote` into `into` and reads its release.json (the build's draft). */
export async function unpackRelease(
  body: Buffer,
  into: string,
  remote: string,
  limits: UploadLimits = DEFAULT_UPLOAD_LIMITS,
): Promise<ReleaseDraft> {
  await unpackArchive(body, into, limits);
  let draft: ReleaseDraft;
  try {
    const parsed = releaseDraftSchema.safeParse(JSON.parse(readFileSync(join(into, 'release.json'), 'utf8')));
    if (!parsed.success)
      throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    draft = parsed.data;
  } catch (err) {
    throw new UploadError(
      400,
      `The archive's release.json is missing or invalid (${(err as Error).message}). Build with \`pnpm release <remote> --site <url>\`, which writes it.`,
    );
  }
  if (draft.remote !== remote)
    throw new UploadError(
      400,
      `The archive is a release of ${draft.remote}, uploaded as ${remote}. Upload it to /api/releases/${draft.remote}.`,
    );
  return draft;
}
