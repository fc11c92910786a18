/**
 * The labelled set the description checks are measured on (docs/mcp.md, "Description checks"): the poisoned texts in
 * tests/checks/poisoned.json, each written from a published attack write-up with the rules that should find it, and
 * as the benign side every tool, prompt, resource and instruction text in data/mcp-inspections.json. The unit test
 * asserts the targets on these figures; `pnpm bench` prints them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Finding } from '@aitools/contracts/checks';
import type { InspectedTool } from '@aitools/contracts/inspection';
import { readInspectionsFile } from '../inspectionsFile';
import { REPO_ROOT } from '../paths';
import { RULE_IDS } from './rules';
import { scanInspection, scanTexts, toolTexts } from './scan';

export const POISONED_FILE = join(REPO_ROOT, 'tests', 'checks', 'poisoned.json');

export interface PoisonedEntry {
  id: string;
  attack: string;
  source: string;
  tool: { name: string; description: string; parameters?: { name: string; description: string }[] };
  /** The rules that should find it (each rule's recall is measured on these). */
  rules: string[];
  /** Names of tools the same server offers (not another's). */
  siblings?: string[];
  note?: string;
}

export interface RuleFigures {
  rule: string;
  /** Poisoned entries labelled with the rule, and how many of them it found. */
  labelled: number;
  found: number;
  /** Benign texts it found something in. */
  benignHits: number;
}

export interface SetFigures {
  poisoned: number;
  poisonedFound: number;
  benign: number;
  benignFlagged: number;
  recall: number;
  precision: number;
  rules: RuleFigures[];
  /** The benign items flagged and poisoned entries missed, for the report. */
  falsePositives: { item: string; findings: Finding[] }[];
  missed: string[];
}

export function readPoisoned(file = POISONED_FILE): PoisonedEntry[] {
  return (JSON.parse(readFileSync(file, 'utf8')) as { entries: PoisonedEntry[] }).entries;
}

function asTool(t: PoisonedEntry['tool']): InspectedTool {
  const properties = Object.fromEntries((t.parameters ?? []).map((p) => [p.name, { description: p.description }]));
  return { name: t.name, description: t.description, inputSchema: { type: 'object', properties } };
}

export function scanPoisoned(e: PoisonedEntry): Finding[] {
  const siblings = (e.siblings ?? []).map((name) => ({ where: `tool ${name}, name`, text: name }));
  return scanTexts([...toolTexts(asTool(e.tool)), ...siblings]);
}

/** Each real item (a server's tool, prompt, resource or instructions) with its findings. */
export function benignItems(): { item: string; findings: Finding[] }[] {
  const out: { item: string; findings: Finding[] }[] = [];
  for (const [slug, inspection] of Object.entries(readInspectionsFile().servers)) {
    if (inspection.status !== 'inspected') continue;
    const findings = scanInspection(inspection);
    const items = [
      ...inspection.tools.map((t) => `tool ${t.name}`),
      ...inspection.prompts.map((p) => `prompt ${p.name}`),
      ...inspection.resources.map((r) => `resource ${r.name}`),
      ...(inspection.instructions ? ['instructions'] : []),
    ];
    for (const item of items)
      out.push({
        item: `${slug}: ${item}`,
        findings: findings.filter((f) => f.where === item || f.where.startsWith(`${item},`)),
      });
  }
  return out;
}

export function measureSet(entries = readPoisoned()): SetFigures {
  const poisoned = entries.map((e) => ({ e, rules: new Set(scanPoisoned(e).map((f) => f.rule)) }));
  const benign = benignItems();
  const flagged = benign.filter((b) => b.findings.length);
  const poisonedFound = poisoned.filter((p) => p.rules.size).length;
  const rules = RULE_IDS.map((rule) => ({
    rule,
    labelled: entries.filter((e) => e.rules.includes(rule)).length,
    found: poisoned.filter((p) => p.e.rules.includes(rule) && p.rules.has(rule)).length,
    benignHits: benign.filter((b) => b.findings.some((f) => f.rule === rule)).length,
  }));
  return {
    poisoned: entries.length,
    poisonedFound,
    benign: benign.length,
    benignFlagged: flagged.length,
    recall: poisonedFound / entries.length,
    precision: poisonedFound / (poisonedFound + flagged.length),
    rules,
    falsePositives: flagged,
    missed: poisoned.filter((p) => !p.rules.size).map((p) => p.e.id),
  };
}
