/** The shipped inspections (data/mcp-inspections.json): what each MCP server offered when it was last inspected.
 *  On the ground floor because the seed (registry/) loads it and the checks (checks/) measure their rules on it. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { McpInspection } from '@aitools/contracts/inspection';
import { DATA_DIR } from './paths';

export const INSPECTIONS_FILE = join(DATA_DIR, 'mcp-inspections.json');

export interface InspectionsFile {
  about: string;
  servers: Record<string, McpInspection>;
}

export function readInspectionsFile(file = INSPECTIONS_FILE): InspectionsFile {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as InspectionsFile) : { about: '', servers: {} };
}
