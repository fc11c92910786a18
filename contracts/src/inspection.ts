/**
 * What `pnpm registry inspect` learned from running an MCP server and asking it (tools/list, prompts/list,
 * resources/list), as stored in data/mcp-inspections.json, served with a tool's details and under our `_meta` key in
 * /v0.1. Types and pure helpers only: the browser imports this file.
 */

/** The JSON Schema of a tool's arguments, as the server sent it (an object schema). */
export interface ToolInputSchema {
  type?: string;
  properties?: Record<
    string,
    { type?: string | string[]; description?: string; enum?: unknown[] } & Record<string, unknown>
  >;
  required?: string[];
  [key: string]: unknown;
}

export interface InspectedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: ToolInputSchema;
}

export interface InspectedPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
}

export interface InspectedResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** The remote endpoint an inspection asked. */
export interface InspectedRemote {
  type: 'streamable-http' | 'sse';
  url: string;
}

export type McpInspection =
  | {
      status: 'inspected';
      /** The npm package and the exact version that ran (a remote server: the record's version). */
      package?: string;
      version: string;
      /** A remote server asked over its transport (api/src/registry/remote.ts) instead of a package run. */
      remote?: InspectedRemote;
      /** Day of the run (YYYY-MM-DD). */
      inspectedAt: string;
      /** What the server called itself in its initialize answer. */
      serverInfo?: { name: string; version: string };
      /** The `license` the package's own metadata declares (npm view <package>@<version> license), as written. */
      license?: string;
      /** The instructions the server's initialize answer gives the model, when it gives any. */
      instructions?: string;
      tools: InspectedTool[];
      prompts: InspectedPrompt[];
      resources: InspectedResource[];
    }
  | {
      status: 'not-inspected';
      /** Shown to visitors as "Not inspected: <reason>". */
      reason: string;
      checkedAt: string;
      package?: string;
      remote?: InspectedRemote;
      version?: string;
      license?: string;
    };

/** Our reverse-DNS `_meta` key for an inspection in /v0.1 answers (beside the listing key). */
export const INSPECTION_META_KEY = 'io.aitoolsdirectory/inspection';

export interface ToolParameter {
  name: string;
  type?: string;
  description?: string;
  required: boolean;
}

/** A tool's parameters from its input schema, required ones first (each group in the schema's order). */
export function toolParameters(tool: Pick<InspectedTool, 'inputSchema'>): ToolParameter[] {
  const properties = tool.inputSchema?.properties ?? {};
  const required = new Set(Array.isArray(tool.inputSchema?.required) ? tool.inputSchema.required : []);
  const list = Object.entries(properties).map(([name, p]) => ({
    name,
    type: Array.isArray(p?.type)
      ? p.type.join(' | ')
      : typeof p?.type === 'string'
        ? p.type
        : Array.isArray(p?.enum)
          ? 'enum'
          : undefined,
    description: typeof p?.description === 'string' ? p.description : undefined,
    required: required.has(name),
  }));
  return [...list.filter((p) => p.required), ...list.filter((p) => !p.required)];
}

/** The inspection as a page needs it: each tool's parameters (name, type, description, required) without the rest of
 *  its input schema (nested shapes, enums, defaults), which can be tens of kilobytes a server. */
export function inspectionForPage(inspection: McpInspection): McpInspection {
  if (inspection.status !== 'inspected') return inspection;
  const tools = inspection.tools.map((t) => {
    const properties = Object.fromEntries(
      toolParameters(t).map((p) => [
        p.name,
        { ...(p.type ? { type: p.type } : {}), ...(p.description ? { description: p.description } : {}) },
      ]),
    );
    const required = toolParameters(t)
      .filter((p) => p.required)
      .map((p) => p.name);
    return { ...t, inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}) } };
  });
  return { ...inspection, tools };
}
