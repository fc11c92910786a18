/**
 * What the description checks found in an MCP server's texts, and its license, as the api serves them with a tool's
 * details and under our `_meta` key in /v0.1 (docs/mcp.md, "Description checks"). Types and pure helpers only: the
 * browser imports this file.
 */

export type Severity = 'high' | 'medium' | 'low';

/** Each description rule's id and what a finding of it means (api/src/checks/rules.ts holds the patterns). */
export const RULE_TITLES = {
  'conceal-from-user': 'Tells the model to keep something from the user',
  'override-instructions': "Tells the model to set aside its instructions or the user's",
  'forced-call': 'Tells the model to call a tool first or every time',
  'model-markup': 'Markup meant for the model, not the reader',
  'secret-reference': 'Refers to secrets or private files',
  exfiltration: 'Asks to send data to an address',
  'invisible-unicode': 'Invisible, direction-changing or terminal-control characters',
  shadowing: "Refers to another server's or tool's name to change how it is used",
  'name-imitation': 'A name that imitates a well-known tool',
} as const;
export type RuleId = keyof typeof RULE_TITLES;

export interface Finding {
  /** Stable for the same rule, place and text: what a moderator's dismissal names. */
  id: string;
  rule: string;
  severity: Severity;
  /** Where in the server's offer: "tool read_file, description", "prompt x, argument y", "instructions". */
  where: string;
  /** The exact text the rule matched (invisible characters included; see visibleText). */
  text: string;
  /** Set when a moderator dismissed it: the reason, and when. A dismissed finding stays listed. */
  dismissed?: { reason: string; at: string };
}

export type LicenseFacts =
  | {
      status: 'known';
      expression: string;
      /** The package's own spelling when it was corrected to SPDX. */ declared?: string;
    }
  | { status: 'unknown'; declared: string }
  | { status: 'missing' };

/** One piece of a text difference: kept, added or removed words. */
export interface DiffPart {
  value: string;
  added?: boolean;
  removed?: boolean;
}

/** What changed in one tool, prompt or resource between two snapshots. */
export interface ItemChange {
  kind: 'tool' | 'prompt' | 'resource' | 'instructions';
  name: string;
  change: 'added' | 'removed' | 'changed';
  /** For a changed item: the word difference of its description, and of its parameters (one line each). */
  description?: DiffPart[];
  parameters?: DiffPart[];
}

export interface ToolHistory {
  /** The versions compared: the one before and the latest (the same version twice for a change within one). */
  from: { version: string; takenAt: string };
  to: { version: string; takenAt: string };
  changes: ItemChange[];
}

/** A change of the offer within the same version: a possible rug pull, open until a moderator reviews it. */
export interface RugPullFlag {
  id: number;
  version: string;
  flaggedAt: string;
  reviewed?: { reason: string; at: string };
}

export interface ChecksFacts {
  findings: Finding[];
  /** Findings not dismissed. */
  open: number;
  license: LicenseFacts;
  /** Versions kept: how many snapshots of the offer, and the latest's content hash. */
  snapshots: number;
  contentHash?: string;
  /** What changed between the last two snapshots, when there are two. */
  history?: ToolHistory;
  /** Changes within one version, newest first. */
  rugPulls: RugPullFlag[];
  /** A remote server's health checks, once it has one. */
  health?: HealthFacts;
}

/** What one health check of a remote server found (api/src/registry/health.ts). */
export type HealthStatus = 'healthy' | 'needs-sign-in' | 'not-mcp' | 'unreachable' | 'timed-out';

export const HEALTH_LABELS: Record<HealthStatus, string> = {
  healthy: 'Healthy',
  'needs-sign-in': 'Needs sign-in',
  'not-mcp': 'Answers HTTP but not MCP',
  unreachable: 'Unreachable',
  'timed-out': 'Timed out',
};

/** A remote server's health as its page and /v0.1 show it. */
export interface HealthFacts {
  last: {
    at: string;
    status: HealthStatus;
    /** Time to answer initialize and tools/list, when it answered. */
    ms?: number;
    /** Why it failed, or the authorization server a sign-in goes to. */
    detail?: string;
  };
  /** Checks in the last 30 days, the share of them that were healthy (0 to 1), and their median time. */
  checks30d: number;
  uptime30d: number;
  medianMs?: number;
  /** Set when every check since this time failed and it is at least 7 days ago. */
  failingSince?: string;
}

/** Our reverse-DNS `_meta` key for the checks in /v0.1 answers (beside the listing and inspection keys). */
export const CHECKS_META_KEY = 'io.aitoolsdirectory/checks';

/** The text with invisible and control characters written as <U+XXXX>, so a page can show what a rule found. */
export function visibleText(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|[\u{E0000}-\u{E007F}]/gu,
    (c) => `<U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`,
  );
}
