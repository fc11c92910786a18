import { z } from 'zod';
import { dateTimeSchema } from '@aitools/contracts/dateTime';

/**
 * The manifest names each remote's active release and keeps its history. It is the only mutable part of the release
 * store: release folders never change once written. This file is its model alone (the schemas, an event's effect,
 * the store's interface), with no file access; where it is kept is a backend of ManifestStore: the file
 * (manifestFile.ts) or the database's rows (manifestStore.ts). The release folders' layout is layout.ts.
 */
/** What a release id can look like (also a path segment and part of URLs, so nothing else is let through). */
export const RELEASE_ID = /^\w[\w.-]{0,127}$/;
const releaseId = z.string().regex(RELEASE_ID, 'not a plausible release id');

/** release: made active for everyone; rollback: back to an earlier one; canary: `id` serves `canary` percent of
 *  visitors beside the active release; promote: the canary becomes active for everyone; abort: the canary ends. */
export const EVENT_ACTIONS = ['release', 'rollback', 'canary', 'promote', 'abort'] as const;
/** The `by` of what the server did on its own (autoRollback.ts). */
export const AUTOMATIC_ACTOR = 'automatic';

const eventSchema = z.object({
  action: z.enum(EVENT_ACTIONS),
  id: releaseId,
  /** The release that was active before. */
  from: releaseId.nullable(),
  at: z.string(),
  by: z.string(),
  /** canary events: the share of visitors, in percent. */
  canary: z.number().int().min(1).max(99).optional(),
  /** Why, for what the server did on its own ("automatic rollback: ..."). */
  note: z.string().max(1000).optional(),
});
const canarySchema = z.object({
  id: releaseId,
  percent: z.number().int().min(1).max(99),
  since: z.string(),
  by: z.string(),
});
const remoteStateSchema = z.object({
  active: releaseId,
  canary: canarySchema.optional(),
  history: z.array(eventSchema),
});
const manifestShape = z.object({ version: z.literal(1), remotes: z.record(z.string(), z.unknown()) });

export type ManifestEvent = z.infer<typeof eventSchema>;
export type RemoteState = z.infer<typeof remoteStateSchema>;
export type CanaryState = z.infer<typeof canarySchema>;

/** A remote's state after one more event: the history grows, the active release and the canary follow the event. */
export function applyEvent(state: RemoteState | undefined, event: ManifestEvent): RemoteState {
  const history = [...(state?.history ?? []), event];
  if (event.action === 'canary') {
    if (!state) throw new ManifestError('a canary needs an active release beside it');
    return {
      active: state.active,
      canary: { id: event.id, percent: event.canary ?? 1, since: event.at, by: event.by },
      history,
    };
  }
  if (event.action === 'abort') return { active: state?.active ?? event.from ?? event.id, history };
  return { active: event.id, history };
}

/** Releases the server rolled back on its own: only a person may make them active or a canary again (with force). */
export function rolledBackAutomatically(state: RemoteState | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of state?.history ?? []) {
    if (e.by !== AUTOMATIC_ACTOR) continue;
    const bad = e.action === 'abort' ? e.id : e.action === 'rollback' ? e.from : null;
    if (bad) out.set(bad, e.note ?? 'automatic rollback');
  }
  return out;
}

export interface Manifest {
  version: 1;
  remotes: Record<string, RemoteState>;
}

/** release.json, written beside the build output. */
export const releaseMetaSchema = z.object({
  id: releaseId,
  remote: z.string(),
  version: z.string(),
  builtAt: z.string(),
  /** Digest of everything the build was made from (releaseSource in sourceHash.ts). */
  sourceHash: z.string(),
  /** Short digests of each input and the checkout's commit; absent in releases made before they were recorded. */
  source: z.object({ inputs: z.record(z.string(), z.string()), gitCommit: z.string().nullable() }).optional(),
  /** Shared-dependency ranges the remote was built against. */
  shared: z.record(z.string(), z.string().optional()),
  /** Stylesheets, relative to the release's client folder. */
  css: z.array(z.string().regex(/^[\w.-]+\.css$/)),
  /** The route-module contract (CONTRACT_VERSION) the release was built against; absent in older releases. */
  contractVersion: z.number().int().optional(),
  /** sha256 (hex) of the entry files, by path in the release: a changed file means a damaged release. */
  files: z.record(z.string(), z.string()).optional(),
  /** Who stored it through the release API (a token's label); absent for a release built on the server. */
  releasedBy: z.string().optional(),
});
export type ReleaseMeta = z.infer<typeof releaseMetaSchema>;

/** How far ahead of the server's clock a build's time may be (the builder's clock may be a little ahead). */
export const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * release.json as a build writes it, before the checks add what they read from the files (css, files). builtAt orders
 * the releases for pruning, so it must be a real time, not in the future, written as toISOString does (sorts as text).
 */
export const releaseDraftSchema = releaseMetaSchema
  .pick({ id: true, remote: true, version: true, sourceHash: true, source: true, shared: true })
  .extend({
    builtAt: dateTimeSchema('not an RFC 3339 date-time with its offset')
      // A string the format check refused (NaN) is that check's to report.
      .refine((v) => !(Date.parse(v) > Date.now() + CLOCK_SKEW_MS), "later than now (the build machine's clock?)")
      .transform((v) => new Date(v).toISOString()),
    contractVersion: z.number().int(),
  });
export type ReleaseDraft = z.infer<typeof releaseDraftSchema>;

export function emptyManifest(): Manifest {
  return { version: 1, remotes: {} };
}

export class ManifestError extends Error {}

export interface ManifestStore {
  /** For messages: what an operator repairs when it is bad. */
  readonly where: string;
  /** The manifest now (validated; the last good state where it is bad). Cheap: the file is re-read only when changed. */
  read(): ManifestRead;
  /** Appends one event to a remote's history (applyEvent: the active release and canary follow it). `expect`, checked
   *  under the writers' lock, refuses the write (StaleStateError) when the remote's state is no longer what the
   *  caller decided on: of several instances deciding the same thing, one writes. */
  record(
    remote: string,
    event: Omit<ManifestEvent, 'from'>,
    expect?: (state: RemoteState | undefined) => boolean,
  ): Promise<Manifest>;
  /** Calls `listener` after the manifest changed: a write through this store or, on Postgres, another instance's. */
  onChange(listener: () => void): void;
  close(): Promise<void>;
}

/** The manifest with one more event for `remote`. */
export function withEvent(manifest: Manifest, remote: string, event: ManifestEvent): Manifest {
  const next = structuredClone(manifest);
  next.remotes[remote] = applyEvent(next.remotes[remote], event);
  return next;
}

/** The remote's state changed between a decision and its write (another instance or operator acted first). */
export class StaleStateError extends Error {}

const issueText = (e: z.ZodError) => e.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');

/**
 * Parses manifest text. A problem of one remote's entry stays with that remote (the others are kept); a file
 * that is not a manifest at all throws ManifestError.
 */
export function parseManifestText(text: string): { manifest: Manifest; problems: Record<string, string> } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ManifestError(text.trim() ? 'not valid JSON (truncated or damaged)' : 'the file is empty');
  }
  const shape = manifestShape.safeParse(json);
  if (!shape.success) throw new ManifestError(`not a manifest (${issueText(shape.error)})`);
  const manifest = emptyManifest();
  const problems: Record<string, string> = {};
  for (const [remote, value] of Object.entries(shape.data.remotes)) {
    const state = remoteStateSchema.safeParse(value);
    if (state.success) manifest.remotes[remote] = state.data;
    else problems[remote] = issueText(state.error);
  }
  return { manifest, problems };
}

/** A read of the manifest: what to use, and what was wrong with the file. */
export interface ManifestRead {
  manifest: Manifest;
  ok: boolean;
  /** What is wrong with the file (absent when ok). */
  problem?: string;
  /** Remotes whose entry is taken from the last good manifest. */
  fromLastGood: string[];
  /** 'file': all from the file; 'last-good': some or all from the last good manifest; 'none': nothing usable. */
  servingFrom: 'file' | 'last-good' | 'none';
  /** Remotes whose entry is bad with no last good entry ('*': the whole file, none known): writing the manifest now
   *  would lose them, so release and rollback refuse until it is repaired. */
  unrecovered: string[];
}
