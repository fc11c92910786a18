/**
 * What the description checks found in an MCP server's texts, and its license, as the api serves them with a tool's
 * details and under our `_meta` key in /v0.1 (docs/mcp.md, "Description checks"). Types and pure helpers only: the
 * browser imports this file.
 */

export type Severity = 'high' | 'medium' | 'low';

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

export interface ChecksFacts {
  findings: Finding[];
  /** Findings not dismissed. */
  open: number;
  license: LicenseFacts;
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
