/**
 * The tables as the code sees them (Kysely's types), one description for SQLite and Postgres. Dates are ISO-8601
 * text on both, so rows read back the same whichever database holds them.
 */
import type { ColumnType, Generated, Kysely } from 'kysely';

export type DB = Kysely<Schema>;
export type Dialect = 'sqlite' | 'postgres';

export interface ToolsTable {
  id: Generated<number>;
  slug: string;
  name: string;
  category: string | null;
  pricing: string | null;
  popularity_score: number | null;
  /** The whole tool as JSON (the fields of docs/product.md, Tool data). */
  doc: string;
  created_at: string;
  /** When an editor hid it (ISO), or null: a hidden tool is in no public list and its page answers 410. */
  hidden_at: string | null;
}

/** A tool's earlier slugs: each old address redirects (301) to the tool's current one. */
export interface ToolSlugAliasesTable {
  old_slug: string;
  slug: string;
}

export interface BlogPostsTable {
  id: Generated<number>;
  slug: string;
  title: string;
  /** A scheduled post is published by the scheduler once `published_at` (an ISO time) has come (blog/scheduler.ts). */
  status: 'published' | 'draft' | 'scheduled';
  published_at: string | null;
  doc: string;
  /** The last change made in the console (ISO time); null for a post as the seed wrote it. */
  updated_at: Generated<string | null>;
}

export interface SubmissionsTable {
  id: Generated<number>;
  name: string;
  email: string;
  website_url: string;
  tool_type: 'ai-tool' | 'mcp-server';
  description: string | null;
  message: string | null;
  status: 'pending' | 'approved' | 'rejected';
  created_at: string;
  reviewed_at: string | null;
  tool_slug: string | null;
}

export interface ContactMessagesTable {
  id: Generated<number>;
  name: string;
  email: string;
  subject: string;
  message: string;
  created_at: string;
}

export interface EarlyAccessTable {
  id: Generated<number>;
  email: string;
  type: string;
  source: string;
  timestamp: string;
}

export interface EventsTable {
  id: Generated<number>;
  event: string;
  data: string;
  /** The client's time; retention goes by received_at, the server's. */
  timestamp: string;
  received_at: string | null;
}

export interface IdempotencyKeysTable {
  endpoint: string;
  key: string;
  /** Digest of the validated input: the same key with other data is refused. */
  fingerprint: string;
  /** The first answer, as JSON ('' while the claiming transaction runs). */
  result: string;
  created_at: string;
}

export interface McpServersTable {
  /** Reverse-DNS server name (server.json "name"). */
  name: string;
  tool_slug: string;
  doc: string;
  source: 'seed' | 'import';
  updated_at: string;
}

/** An MCP server's inspection (contracts/src/inspection.ts McpInspection as JSON), by its tool. */
export interface McpInspectionsTable {
  tool_slug: string;
  doc: string;
  /** 'seed': loaded from data/mcp-inspections.json; 'run': written by an inspection (registry/inspect.ts). */
  source: ColumnType<'seed' | 'run', 'seed' | 'run' | undefined, 'seed' | 'run'>;
}

export interface CheckSnapshotsTable {
  id: Generated<number>;
  tool_slug: string;
  version: string;
  hash: string;
  /** JSON: the snapshot's items (checks/history.ts). */
  doc: string;
  taken_at: string;
}

export interface HealthChecksTable {
  id: Generated<number>;
  tool_slug: string;
  checked_at: string;
  /** contracts/src/checks.ts HealthStatus. */
  status: string;
  /** Time to answer initialize and tools/list; null when it did not answer. */
  ms: number | null;
  /** The failure's reason, or the authorization server a sign-in needs. */
  detail: string | null;
}

export interface CheckRugPullsTable {
  id: Generated<number>;
  tool_slug: string;
  version: string;
  snapshot_id: number;
  flagged_at: string;
  reviewed_at: string | null;
  reviewed_by: string | null;
  review_reason: string | null;
}

export interface CheckDismissalsTable {
  tool_slug: string;
  finding_id: string;
  reason: string;
  dismissed_by: string;
  dismissed_at: string;
}

export interface SubmissionServersTable {
  submission_id: number;
  name: string;
  doc: string;
}

/** An upstream registry this site follows (registry/upstreams.ts). */
export interface RegistryUpstreamsTable {
  id: Generated<number>;
  /** Its base address; the sync reads `<url>/v0.1/servers`. */
  url: string;
  /** What a server new to us becomes: a pending submission, or listed at once. */
  policy: 'submissions' | 'list';
  pages_per_run: number;
  /** The `updated_since` of the next sync: the newest change the last good one read (ISO), null before the first. */
  since: string | null;
  /** Where a run that reached its page limit stopped, and the newest change it had read so far. */
  resume_cursor: string | null;
  resume_mark: string | null;
  created_at: string;
}

/** One sync of an upstream: what it changed (counts as JSON) or why it was refused. */
export interface RegistrySyncsTable {
  id: Generated<number>;
  upstream_id: number;
  started_at: string;
  finished_at: string;
  outcome: 'ok' | 'refused';
  reason: string | null;
  counts: string;
}

export interface DataVersionTable {
  id: number;
  version: number;
}

export interface SchemaVersionTable {
  id: number;
  version: number;
}

/** Write rate-limit counts, shared by every instance on the database (see middleware/rateLimitStore). */
export interface RateLimitsTable {
  key: string;
  hits: number;
  /** Epoch milliseconds when the window ends. */
  reset_at: number;
}

/** With Postgres, the release manifest is these rows: each release or rollback of a remote, in order; a remote's
 *  active release is its newest row's (see releases/manifestStore.ts). */
export interface ReleaseEventsTable {
  id: Generated<number>;
  remote: string;
  action: 'release' | 'rollback' | 'canary' | 'promote' | 'abort';
  release_id: string;
  /** The release active before. */
  from_id: string | null;
  at: string;
  by: string;
  /** canary: the share of visitors in percent. */
  canary: number | null;
  /** Why, for what the server did on its own. */
  note: string | null;
}

/** Counts of what visitors' browsers and the server report per release and minute (releases/signals.ts). */
export interface ReleaseSignalsTable {
  remote: string;
  release_id: string;
  kind: string;
  /** Minutes since 1970 (UTC). */
  minute: number;
  count: number;
}

/** Who stands behind visitors' error reports: one row per release, minute and visitor (releases/signalTokens.ts;
 *  keyed hashes of the address, never the address). */
export interface ReleaseSignalSourcesTable {
  remote: string;
  release_id: string;
  minute: number;
  visitor: string;
  network: string;
}

/** Release API tokens (see releases/tokens.ts): the sha256 of the token, never the token. */
export interface ReleaseTokensTable {
  id: Generated<number>;
  label: string;
  /** Comma-separated remote names, or '*' for an operator token that covers every remote. */
  remotes: string;
  token_hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** An operator of the console (console/people.ts). roles: JSON of Role[] (console/roles.ts). */
export interface ConsolePeopleTable {
  id: Generated<number>;
  name: string;
  email: string | null;
  roles: string;
  /** 1 when disabled: every session of the person is refused at once. */
  disabled: number;
  created_at: string;
}

/** A one-time link to register a passkey (console/invitations.ts): the sha256 of its token, never the token. */
export interface ConsoleInvitationsTable {
  id: Generated<number>;
  person_id: number;
  token_hash: string;
  created_at: string;
  /** Epoch milliseconds. */
  expires_at: number;
  used_at: string | null;
  created_by: string;
}

/** A person's passkeys (console/passkeys.ts): the public key only. */
export interface ConsolePasskeysTable {
  /** The credential id (base64url). */
  id: string;
  person_id: number;
  public_key: string;
  counter: number;
  transports: string;
  label: string;
  created_at: string;
  last_used_at: string | null;
}

/** WebAuthn challenges handed out and not yet used (console/passkeys.ts): each is deleted by its one use. */
export interface ConsoleChallengesTable {
  challenge: string;
  purpose: 'register' | 'login' | 'add';
  /** sha256 of the flow cookie the options were given with: the answer must come from the same browser. */
  flow_hash: string;
  invitation_id: number | null;
  person_id: number | null;
  /** Epoch milliseconds. */
  expires_at: number;
}

/** Console sessions (console/sessions.ts): the sha256 of the cookie's id, never the id. Times in epoch ms. */
export interface ConsoleSessionsTable {
  id_hash: string;
  person_id: number;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

/** The audit trail (content/audit.ts): rows are only ever added (triggers refuse an update or a delete). */
export interface ConsoleAuditTable {
  id: Generated<number>;
  at: string;
  actor: string;
  action: string;
  target: string;
  summary: string;
  address: string;
  outcome: 'ok' | 'refused';
}

/** One run of a scheduled job (jobs/runs.ts). */
export interface JobRunsTable {
  id: Generated<number>;
  job: string;
  /** The scheduled time the run is for (ISO), or `now:<id>` for a run asked for by hand. */
  slot: string;
  /** 1 for the first try of a slot, then one more per retry. */
  attempt: number;
  /** `schedule`, `retry`, or the actor who asked (`person:…`, `cli:…`). */
  trigger: string;
  /** The process that ran it (host and pid). */
  instance: string;
  /** The queue's job id on Postgres (pg-boss), shared by the attempts of one run. */
  queue_id: string | null;
  started_at: string;
  finished_at: string | null;
  status: 'running' | 'ok' | 'failed';
  reason: string | null;
  summary: string;
  /** JSON: what the run changed, counted by kind. */
  counts: string;
}

/** A server waiting for the inspect job (jobs/inspectJob.ts). */
export interface InspectionQueueTable {
  tool_slug: string;
  /** The version that made it wait (a new release), if any. */
  version: string | null;
  reason: string;
  queued_at: string;
}

/** Instances sharing one Postgres, each writing its row every half minute (console/instances.ts). */
export interface InstancesTable {
  id: string;
  host: string;
  pid: number;
  started_at: string;
  /** Epoch milliseconds of its last report. */
  seen_at: number;
  /** 'ok' or 'degraded' (its releases' health). */
  status: string;
}

/** Saved versions of posts and tools (content/revisions.ts): `body` is the whole record as JSON. */
export interface ContentRevisionsTable {
  id: Generated<number>;
  kind: 'post' | 'tool';
  key: string;
  version: number;
  body: string;
  author: string;
  created_at: string;
}

/** Purges the shared caches still have to take, one row per key (edge/purges.ts). Times in epoch milliseconds. */
export interface EdgePurgesTable {
  key: string;
  /** Bumped by each change of the key: a row is deleted only for the generation that was sent. */
  generation: number;
  queued_at: number;
  /** Not sent before this (backoff after a cache failed). */
  next_at: number;
  attempts: number;
  /** Claimed by an instance sending it until then (0: free). */
  claimed_until: number;
  /** Sent once more at this time after it went out (0: not). */
  again_at: number;
}

/** A remote's release state as of its last queued purges (releases/releaseChange.ts). */
export interface EdgeReleaseMarksTable {
  remote: string;
  active: string;
  canary: string | null;
  percent: number | null;
  /** How many events of the remote's history those purges covered. */
  events: number;
}

/** One distinct release file content, by its sha256 (hex) (releases/dbReleaseStore.ts). */
export interface ReleaseContentsTable {
  sha256: string;
  bytes: Buffer;
}

/** A release stored in the database: its release.json (text) and when it was built (for listing newest first). */
export interface StoredReleasesTable {
  remote: string;
  release_id: string;
  meta: string;
  built_at: string;
}

/** A file of a stored release: its path in the release folder and the content it holds. */
export interface ReleasePathsTable {
  remote: string;
  release_id: string;
  path: string;
  sha256: string;
}

export interface Schema {
  tools: ToolsTable;
  tool_slug_aliases: ToolSlugAliasesTable;
  blog_posts: BlogPostsTable;
  submissions: SubmissionsTable;
  contact_messages: ContactMessagesTable;
  early_access: EarlyAccessTable;
  events: EventsTable;
  idempotency_keys: IdempotencyKeysTable;
  mcp_servers: McpServersTable;
  mcp_inspections: McpInspectionsTable;
  check_snapshots: CheckSnapshotsTable;
  check_rug_pulls: CheckRugPullsTable;
  health_checks: HealthChecksTable;
  check_dismissals: CheckDismissalsTable;
  submission_servers: SubmissionServersTable;
  registry_upstreams: RegistryUpstreamsTable;
  registry_syncs: RegistrySyncsTable;
  data_version: DataVersionTable;
  schema_version: SchemaVersionTable;
  rate_limits: RateLimitsTable;
  release_events: ReleaseEventsTable;
  release_tokens: ReleaseTokensTable;
  release_signals: ReleaseSignalsTable;
  release_signal_sources: ReleaseSignalSourcesTable;
  console_people: ConsolePeopleTable;
  console_invitations: ConsoleInvitationsTable;
  console_passkeys: ConsolePasskeysTable;
  console_challenges: ConsoleChallengesTable;
  console_sessions: ConsoleSessionsTable;
  console_audit: ConsoleAuditTable;
  instances: InstancesTable;
  content_revisions: ContentRevisionsTable;
  edge_purges: EdgePurgesTable;
  job_runs: JobRunsTable;
  inspection_queue: InspectionQueueTable;
  edge_release_marks: EdgeReleaseMarksTable;
  release_contents: ReleaseContentsTable;
  stored_releases: StoredReleasesTable;
  release_paths: ReleasePathsTable;
}
