/** The shapes of the console's JSON API (the console contract; served by api/src/console). */

export type { Person, PlainRole, Role, RoleName } from '@aitools/contracts/console';

export interface Passkey {
  id: string;
  label: string;
  createdAt: string;
  lastUsedAt?: string | null;
}

/** Page views and errors of one release: an error rate is errors per view. A bare number is a rate in percent. */
export type Rate = { views: number; errors: number; release?: string } | number;

export interface Canary {
  release: string;
  share: number;
  since: string;
}

/** The error rates automatic rollback compares (the new release is `canary`, or `fresh` after a full release). */
export interface ErrorRates {
  watching?: 'canary' | 'activation' | null;
  stable?: Rate;
  canary?: Rate;
  fresh?: Rate;
}

export interface RemoteSummary {
  name: string;
  active: string | null;
  canary?: Canary | null;
  errorRates: ErrorRates;
}

export interface Dashboard {
  pendingSubmissions: number;
  messagesThisWeek: number;
  viewsPerRemotePerDay: { day: string; remote: string; views: number }[];
  remotes: RemoteSummary[];
}

export interface Health {
  instance: Record<string, unknown>;
  instances?: Record<string, unknown>[];
}

export interface Submission {
  id: number;
  name: string;
  email?: string;
  website_url?: string;
  tool_type?: string;
  description?: string | null;
  created_at?: string;
  status?: string;
}

export interface StoredRelease {
  id: string;
  uploadedBy?: string | null;
  createdAt?: string | null;
}

export interface HistoryEntry {
  action: string;
  id: string;
  from?: string | null;
  at: string;
  by: string;
  canary?: number;
  note?: string;
  reason?: string;
}

/** What automatic rollback watches (api/src/config.ts, RollbackRule). */
export interface Thresholds {
  minViews?: number;
  minErrors?: number;
  ratio?: number;
  minDiffPoints?: number;
  windowMinutes?: number;
}

export interface RemoteReleases extends RemoteSummary {
  releases: StoredRelease[];
  history: HistoryEntry[];
  thresholds: Thresholds;
}

export interface SeriesPoint {
  /** Minutes since 1970 (UTC), or an ISO time. */
  minute: number | string;
  release: string;
  views: number;
  errors: number;
}

export interface TokenInfo {
  label: string;
  remotes: string[];
  createdAt?: string;
  createdBy?: string;
  lastUsedAt?: string | null;
  revokedAt?: string | null;
}

export interface AuditEntry {
  id: number;
  at: string;
  actor: string;
  action: string;
  target: string;
  summary?: string | null;
  address?: string | null;
  outcome: string;
}
