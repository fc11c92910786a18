/**
 * Runs the description checks (rules.ts) over every text an MCP server offers the model: each tool's name, title,
 * description and input schema (names and descriptions at any depth), each prompt's and resource's, and the server's
 * instructions. Pure: the findings depend on the inspection alone (and the names of well-known tools).
 */
import { createHash } from 'node:crypto';
import type { Finding } from '@aitools/contracts/checks';
import type { InspectedTool, McpInspection } from '@aitools/contracts/inspection';
import { readInspectionsFile } from '../inspectionsFile';
import { RULES, skeleton, TOOL_REFERENCE, WELL_KNOWN_TOOLS } from './rules';

/** One text the model reads, and where it is in the server's offer. */
export interface OfferedText {
  where: string;
  text: string;
  /** Set on a tool's or prompt's name: what name imitation compares. */
  isName?: boolean;
}

/** How many characters of a match a finding keeps (a whole hidden paragraph is shown from its start). */
const MAX_TEXT = 300;
/** How deep an input schema is walked for names and descriptions. */
const MAX_DEPTH = 6;

function schemaTexts(schema: unknown, where: string, out: OfferedText[], depth = 0): void {
  if (!schema || typeof schema !== 'object' || depth > MAX_DEPTH) return;
  const s = schema as Record<string, unknown>;
  for (const key of ['title', 'description'] as const)
    if (typeof s[key] === 'string' && depth > 0) out.push({ where: `${where}, ${key}`, text: s[key] });
  if (s.properties && typeof s.properties === 'object')
    for (const [name, sub] of Object.entries(s.properties as Record<string, unknown>)) {
      const at = `${where.replace(/, parameter .*$/, '')}, parameter ${name}`;
      out.push({ where: `${at}, name`, text: name });
      schemaTexts(sub, at, out, depth + 1);
    }
  for (const key of ['items', 'additionalProperties'] as const) schemaTexts(s[key], where, out, depth + 1);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
    if (Array.isArray(s[key])) for (const sub of s[key]) schemaTexts(sub, where, out, depth + 1);
}

export function toolTexts(tool: Pick<InspectedTool, 'name' | 'title' | 'description' | 'inputSchema'>): OfferedText[] {
  const at = `tool ${tool.name}`;
  const out: OfferedText[] = [{ where: `${at}, name`, text: tool.name, isName: true }];
  if (tool.title) out.push({ where: `${at}, title`, text: tool.title });
  if (tool.description) out.push({ where: `${at}, description`, text: tool.description });
  schemaTexts(tool.inputSchema, at, out);
  return out;
}

export function offeredTexts(inspection: McpInspection): OfferedText[] {
  if (inspection.status !== 'inspected') return [];
  const out = inspection.tools.flatMap(toolTexts);
  for (const p of inspection.prompts) {
    const at = `prompt ${p.name}`;
    out.push({ where: `${at}, name`, text: p.name, isName: true });
    if (p.title) out.push({ where: `${at}, title`, text: p.title });
    if (p.description) out.push({ where: `${at}, description`, text: p.description });
    for (const a of p.arguments ?? [])
      if (a.description) out.push({ where: `${at}, argument ${a.name}`, text: a.description });
  }
  for (const r of inspection.resources) {
    const at = `resource ${r.name}`;
    if (r.title) out.push({ where: `${at}, title`, text: r.title });
    if (r.description) out.push({ where: `${at}, description`, text: r.description });
  }
  if (inspection.instructions) out.push({ where: 'instructions', text: inspection.instructions });
  return out;
}

/** The names a server offers itself (its tools, prompts and parameters): naming them is not shadowing. */
function ownNames(texts: OfferedText[]): Set<string> {
  const own = new Set<string>();
  for (const t of texts) if (t.isName || t.where.endsWith(', name')) own.add(t.text.toLowerCase());
  return own;
}

let known: Map<string, string> | undefined;
/** Skeleton to name, for every well-known tool and every tool in the site's inspections. */
function knownBySkeleton(): Map<string, string> {
  if (known) return known;
  const names = new Set(WELL_KNOWN_TOOLS);
  for (const i of Object.values(readInspectionsFile().servers))
    if (i.status === 'inspected') for (const t of i.tools) names.add(t.name);
  known = new Map([...names].map((n) => [skeleton(n), n]));
  return known;
}

export const findingId = (rule: string, where: string, text: string) =>
  createHash('sha256').update(`${rule}\n${where}\n${text}`).digest('base64url').slice(0, 16);

/** Every finding in the texts, once per rule, place and matched text, in the texts' order. */
export function scanTexts(texts: OfferedText[]): Finding[] {
  const found = new Map<string, Finding>();
  const add = (rule: string, where: string, text: string) => {
    const r = RULES.find((x) => x.id === rule)!;
    const f = { id: '', rule, severity: r.severity, where, text: text.trim().slice(0, MAX_TEXT) };
    f.id = findingId(rule, where, f.text);
    found.set(f.id, f);
  };
  const own = ownNames(texts);
  const bySkeleton = knownBySkeleton();
  for (const { where, text, isName } of texts) {
    for (const rule of RULES)
      for (const pattern of rule.patterns) for (const m of text.matchAll(pattern)) add(rule.id, where, m[0]);
    for (const m of text.matchAll(TOOL_REFERENCE)) {
      const name = (m[1] ?? m[2])!;
      if (!own.has(name.toLowerCase())) add('shadowing', where, sentenceAround(text, m.index));
    }
    if (isName) {
      const like = bySkeleton.get(skeleton(text));
      // eslint-disable-next-line no-control-regex
      if (/[^\x00-\x7F]/.test(text) || (like && like !== text)) add('name-imitation', where, text);
    }
  }
  return [...found.values()];
}

/** The sentence (or line) a match is in: what a reader needs to judge a reference to another tool. */
function sentenceAround(text: string, index: number): string {
  const start = Math.max(text.lastIndexOf('.', index - 1), text.lastIndexOf('\n', index - 1)) + 1;
  const ends = [text.indexOf('.', index), text.indexOf('\n', index)].filter((i) => i >= 0);
  return text.slice(start, ends.length ? Math.min(...ends) + 1 : text.length);
}

export const scanInspection = (inspection: McpInspection): Finding[] => scanTexts(offeredTexts(inspection));
