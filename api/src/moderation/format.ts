/**
 * What the moderation CLI prints about visitor data. Every visitor-supplied value goes through
 * escapeForDisplay, so no escape sequence, carriage return, OSC 8 link or bidi control reaches the
 * operator's terminal: each shows as a visible escape such as \u{1B}.
 */
import { escapeForDisplay } from '@aitools/contracts/text';
import type { ContactRow, EarlyAccessRow, SubmissionRow } from '../forms/repository';

const line = (v: unknown) => escapeForDisplay(v == null ? '' : String(v));
/** Multi-line text, each line indented under its record. */
const block = (v: string, indent = '    ') => escapeForDisplay(v, true).replace(/\n/g, `\n${indent}`);

export function submissionLines(s: SubmissionRow): string[] {
  const lines = [
    `#${s.id} [${line(s.status)}] ${line(s.created_at)} ${line(s.tool_type)} ${line(s.name)} <${line(s.email)}> ${line(s.website_url)}${s.tool_slug ? ` -> /tool/${line(s.tool_slug)}` : ''}`,
  ];
  if (s.description) lines.push(`    description: ${block(s.description)}`);
  if (s.message) lines.push(`    message: ${block(s.message)}`);
  return lines;
}

export function contactLines(m: ContactRow): string[] {
  return [
    `#${m.id} ${line(m.created_at)} [${line(m.subject)}] ${line(m.name)} <${line(m.email)}>`,
    `    ${block(m.message)}`,
  ];
}

export function subscriberLine(s: EarlyAccessRow): string {
  return `${line(s.timestamp)} ${line(s.email)}`;
}
