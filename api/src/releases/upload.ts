/**
 * A release folder uploaded as a gzip tar (the release API): read with node-tar, refused whole at the first entry
 * that is not a plain file or folder inside client/, server/ or release.json, or past the limits. The body is
 * inflated once, as a stream, while every entry is checked (nothing is written); the tar read is then unpacked into a
 * folder of the caller's that is stored only after the release's own checks pass (store.ts).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGunzip } from 'node:zlib';
import { Parser, Unpack, type ReadEntry } from 'tar';
import { releaseDraftSchema, type ReleaseDraft } from './manifest';

export interface UploadLimits {
  /** Entries (files and folders) in the archive. */
  maxFiles: number;
  /** Bytes of all files once unpacked. */
  maxBytes: number;
}

export const DEFAULT_UPLOAD_LIMITS: UploadLimits = { maxFiles: 2000, maxBytes: 64 * 1024 * 1024 };

/** What tar adds to an entry at most, for a plausible name: its header, a long-name header and its data, padding. */
const ENTRY_OVERHEAD = 4 * 512;
/** tar pads an archive to a whole record (20 blocks) after its end-of-archive marker. */
const RECORD = 20 * 512;

/** The most an archive within `limits` inflates to; a body that inflates to more is refused as it inflates. */
export const maxInflatedBytes = (limits: UploadLimits) =>
  limits.maxBytes + (limits.maxFiles + 1) * ENTRY_OVERHEAD + RECORD;

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

const unreadable = (err: unknown) =>
  err instanceof UploadError
    ? err
    : new UploadError(
        400,
        `The body is not a readable gzip tar (${(err as Error)?.message ?? err}). Pack the release folder with tar -czf.`,
      );

/** Runs a node-tar stream over a whole tar; resolves when it has read all, rejects with the first problem. */
function feed(stream: Parser | Unpack, body: Buffer, refusal: () => UploadError | null): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      reject(refusal() ?? unreadable(err));
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

/**
 * Inflates a gzip body into `parser` as a stream (zlib works off the event loop), counting every byte that comes
 * out, padding included: past maxInflatedBytes it stops with a 413, and a record after the tar's end-of-archive
 * marker with a 400. So a small body of compressed padding cannot keep the server inflating (the tar's declared
 * sizes alone do not bound it). Resolves with the tar read.
 */
function inflateInto(
  body: Buffer,
  parser: Parser,
  limits: UploadLimits,
  refusal: () => UploadError | null,
): Promise<Buffer> {
  const max = maxInflatedBytes(limits);
  return new Promise((resolve, reject) => {
    const gunzip = createGunzip();
    const chunks: Buffer[] = [];
    let total = 0;
    /** Bytes inflated after the chunk that ended the archive (null before its end-of-archive marker). */
    let afterEnd: number | null = null;
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      gunzip.destroy();
      reject(refusal() ?? unreadable(err));
    };
    parser.on('eof', () => (afterEnd ??= 0));
    parser.on('error', fail);
    parser.on('abort', fail);
    parser.on('close', () => {
      if (settled) return;
      settled = true;
      const problem = refusal();
      if (problem) reject(problem);
      else resolve(Buffer.concat(chunks));
    });
    gunzip.on('error', fail);
    gunzip.on('data', (chunk: Buffer) => {
      if (settled) return;
      total += chunk.length;
      if (total > max)
        return fail(
          new UploadError(
            413,
            `Refused: the archive inflates to more than ${max} bytes (files of at most ${limits.maxBytes} bytes, and tar's own headers). A release folder holds its build output only.`,
          ),
        );
      if (afterEnd !== null) {
        afterEnd += chunk.length;
        if (afterEnd > RECORD)
          fail(
            new UploadError(
              400,
              'Refused: the archive goes on after its end-of-archive marker. Pack the release folder with tar -czf.',
            ),
          );
        return;
      }
      // node-tar would inflate a gzip inside the gzip itself, all at once.
      if (!chunks.length && isGzip(chunk))
        return fail(new UploadError(400, 'Refused: the archive is compressed twice. Pack it with tar -czf.'));
      chunks.push(chunk);
      parser.write(chunk);
    });
    gunzip.on('end', () => {
      if (!settled) parser.end();
    });
    gunzip.end(body);
  });
}

/** Checks every entry of the archive without writing anything. */
export async function checkArchive(
  body: Buffer,
  limits: UploadLimits = DEFAULT_UPLOAD_LIMITS,
): Promise<{ files: number; bytes: number }> {
  const { files, bytes } = await readArchive(body, limits);
  return { files, bytes };
}

/** Checks every entry of the archive, and returns it inflated (the tar, up to its end). */
async function readArchive(body: Buffer, limits: UploadLimits): Promise<{ files: number; bytes: number; tar: Buffer }> {
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
    // Inflated here already: nothing else is decompressed.
    zstd: false,
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
  const tar = await inflateInto(body, parser, limits, () => refused);
  if (!files)
    throw new UploadError(400, 'The archive is empty. Pack the built release folder (client/, server/, release.json).');
  return { files, bytes, tar };
}

/** Checks the archive, then unpacks it into `into` (a new folder; the caller removes it on any failure). */
export async function unpackArchive(
  body: Buffer,
  into: string,
  limits: UploadLimits = DEFAULT_UPLOAD_LIMITS,
): Promise<void> {
  const { tar } = await readArchive(body, limits);
  mkdirSync(into, { recursive: true });
  let refused: UploadError | null = null;
  const unpack = new Unpack({
    cwd: into,
    strict: true,
    zstd: false,
    // Checked above already; kept so that this pass could never write what the first refused.
    filter: (path, entry) => {
      const problem = entryProblem({ path, type: (entry as ReadEntry).type });
      if (problem) refused ??= new UploadError(400, `Refused: ${problem}.`);
      return !problem;
    },
    // A release's files need no owner from the archive.
    preserveOwner: false,
  });
  await feed(unpack, tar, () => refused);
}

/** Unpacks an uploaded release of `remote` into `into` and reads its release.json (the build's draft). */
export async function unpackRelease(
  body: Buffer,
  into: string,
  remote: string,
  limits: UploadLimits = DEFAULT_UPLOAD_LIMITS,
): Promise<ReleaseDraft> {
  await unpackArchive(body, into, limits);
  // The reasons name the archive's own contents, never a server path (as the errors of fs would).
  const invalid = (why: string) =>
    new UploadError(
      400,
      `The archive's release.json is missing or invalid (${why}). Build with \`pnpm release <remote> --site <url>\`, which writes it.`,
    );
  const file = join(into, 'release.json');
  if (!existsSync(file)) throw invalid('the archive has no release.json');
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw invalid('release.json is not a readable JSON file');
  }
  const parsed = releaseDraftSchema.safeParse(json);
  if (!parsed.success) throw invalid(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  const draft = parsed.data;
  if (draft.remote !== remote)
    throw new UploadError(
      400,
      `The archive is a release of ${draft.remote}, uploaded as ${remote}. Upload it to /api/releases/${draft.remote}.`,
    );
  return draft;
}
