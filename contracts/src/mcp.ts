/**
 * The MCP registry's server.json (static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json), as we store
 * it for every MCP server, read it from `pnpm registry import` and serve it from /v0.1/servers. One zod schema; the
 * browser imports only the types (the schema is built in a function marked pure, so bundles without it drop zod).
 */
import { z } from 'zod';
import type { ToolSummary } from './tools';
import { isWebUrl, WEB_URL_MESSAGE } from './fields';
import { findForbiddenCharacter, forbiddenReason } from './text';
import type { McpInspection } from './inspection';
import type { ChecksFacts } from './checks';

/** A value the visitor supplies (environment variable, header, argument or URL variable). */
export interface McpInput {
  description?: string;
  isRequired?: boolean;
  isSecret?: boolean;
  format?: 'string' | 'number' | 'boolean' | 'filepath';
  default?: string;
  placeholder?: string;
  /** A fixed value; `{name}` parts are filled from `variables`. */
  value?: string;
  choices?: string[];
  variables?: Record<string, McpInput>;
}
export interface McpKeyValueInput extends McpInput {
  name: string;
}
export type McpArgument =
  | (McpInput & { type: 'positional'; valueHint?: string; isRepeated?: boolean })
  | (McpKeyValueInput & { type: 'named'; isRepeated?: boolean });

export type McpTransport =
  { type: 'stdio' } | { type: 'streamable-http' | 'sse'; url: string; headers?: McpKeyValueInput[] };

export interface McpPackage {
  /** npm, pypi, oci, nuget, mcpb, ... */
  registryType: string;
  registryBaseUrl?: string;
  identifier: string;
  version?: string;
  /** npx, uvx, docker, dnx */
  runtimeHint?: string;
  transport: McpTransport;
  runtimeArguments?: McpArgument[];
  packageArguments?: McpArgument[];
  environmentVariables?: McpKeyValueInput[];
}

export interface McpRemote {
  type: 'streamable-http' | 'sse';
  url: string;
  headers?: McpKeyValueInput[];
  variables?: Record<string, McpInput>;
}

export interface McpRepository {
  url: string;
  source: string;
  id?: string;
  subfolder?: string;
}

/** A server.json document. `version` is required by the registry; our seed leaves it out where it is not known. */
export interface ServerJson {
  $schema?: string;
  name: string;
  title?: string;
  description: string;
  version?: string;
  websiteUrl?: string;
  repository?: McpRepository;
  icons?: { src: string; mimeType?: string; sizes?: string[]; theme?: 'light' | 'dark' }[];
  packages?: McpPackage[];
  remotes?: McpRemote[];
  _meta?: Record<string, unknown>;
}

/** What GET /api/tools/:slug adds to a tool: its server.json record (MCP servers) and similar tools. */
export interface ToolDetailExtras {
  mcpServer?: ServerJson;
  /** What running the server showed it offers, or why it was not run (MCP servers with a record). */
  mcpInspection?: McpInspection;
  /** The checks of a server with an inspection record: findings, license, tool history (docs/mcp.md, "Description checks"). */
  mcpChecks?: ChecksFacts;
  similar?: ToolSummary[];
}

export const SERVER_SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';
/** Our additions in registry answers live under this reverse-DNS key of `_meta` (registry convention). */
export const META_KEY = 'io.aitoolsdirectory/listing';
export const OFFICIAL_META_KEY = 'io.modelcontextprotocol.registry/official';

/** Version ranges and floating tags the registry refuses ('^1.2.3', '~1', '>=1', '1.x', '1.*', 'latest'). */
const isPinnedVersion = (v: string) => v !== 'latest' && !/^[\^~<>=]|[xX*](\.|$)|\s-\s|\|\|/.test(v);

/** A document's bounds: a server.json is a few kB, nested a few levels (its `_meta` is anyone's to fill). */
export const DOCUMENT_LIMITS = { depth: 12, text: 4000, key: 200, total: 64 * 1024 } as const;

/** A key as a path names it in a reason: a long one cut, so a reason stays short whatever was sent. */
/** A checked document with every text, keys included, in NFC (a copy; the nesting is bounded by the check). */
function inNfc(value: unknown): unknown {
  if (typeof value === 'string') return value.normalize('NFC');
  if (Array.isArray(value)) return value.map(inNfc);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.normalize('NFC'), inNfc(v)]));
  return value;
}

const named = (key: string) => (key.length > 40 ? `${key.slice(0, 40)}…` : key);

/**
 * The field rules for a whole document: no string anywhere (install commands and arguments included, which a
 * visitor copies into a terminal) holds a control, bidi or invisible character; only descriptions may span lines.
 * Nesting, each text and key, and all the text together are bounded (DOCUMENT_LIMITS), the walk stopping at them.
 */
function checkCharacters(
  value: unknown,
  path: PropertyKey[],
  report: (path: PropertyKey[], message: string) => void,
  budget = { text: DOCUMENT_LIMITS.total },
): void {
  if (budget.text < 0) return;
  if (path.length > DOCUMENT_LIMITS.depth)
    return report(path.slice(0, DOCUMENT_LIMITS.depth), `nests more than ${DOCUMENT_LIMITS.depth} levels deep`);
  if (typeof value === 'string') {
    budget.text -= Math.min(value.length, DOCUMENT_LIMITS.text);
    if (value.length > DOCUMENT_LIMITS.text) return report(path, `must be ${DOCUMENT_LIMITS.text} characters or less`);
    const found = findForbiddenCharacter(value, path[path.length - 1] === 'description');
    if (found) report(path, forbiddenReason(found));
  } else if (Array.isArray(value)) value.forEach((v, i) => checkCharacters(v, [...path, i], report, budget));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      budget.text -= Math.min(k.length, DOCUMENT_LIMITS.key);
      if (k.length > DOCUMENT_LIMITS.key)
        report([...path, named(k)], `key must be ${DOCUMENT_LIMITS.key} characters or less`);
      else {
        const found = findForbiddenCharacter(k);
        if (found) report([...path, k], `key ${forbiddenReason(found)}`);
      }
      checkCharacters(v, [...path, named(k)], report, budget);
    }
  if (budget.text < 0 && path.length === 0)
    report([], `holds more than ${DOCUMENT_LIMITS.total} characters of text in all`);
}

function buildSchemas() {
  /** A page a visitor's browser opens (the listing's "Visit Website", icons): http: or https: only. */
  const webUrl = (max = 2048) => z.string().max(max).refine(isWebUrl, WEB_URL_MESSAGE);
  const input = z.object({
    description: z.string().max(2000).optional(),
    isRequired: z.boolean().optional(),
    isSecret: z.boolean().optional(),
    format: z.enum(['string', 'number', 'boolean', 'filepath']).optional(),
    default: z.string().optional(),
    placeholder: z.string().optional(),
    value: z.string().optional(),
    choices: z.array(z.string()).optional(),
  });
  const inputWithVariables = input.extend({ variables: z.record(z.string(), input).optional() });
  const keyValue = inputWithVariables.extend({ name: z.string().min(1).max(200) });
  const positional = inputWithVariables
    .extend({ type: z.literal('positional'), valueHint: z.string().optional(), isRepeated: z.boolean().optional() })
    .refine((a) => a.valueHint !== undefined || a.value !== undefined, {
      message: 'a positional argument needs valueHint or value',
    });
  const named = keyValue.extend({ type: z.literal('named'), isRepeated: z.boolean().optional() });
  const argument = z.union([positional, named]);
  const url = z
    .string()
    .regex(
      /^(https?:\/\/[^\s]+|\{[a-zA-Z_][a-zA-Z0-9_]*\}[^\s]*)$/,
      'must be an http(s) URL or start with a {variable}',
    );
  const httpTransport = z.object({
    type: z.enum(['streamable-http', 'sse']),
    url,
    headers: z.array(keyValue).optional(),
  });
  const transport = z.union([z.object({ type: z.literal('stdio') }), httpTransport]);
  const pkg = z.object({
    registryType: z.string().min(1).max(50),
    registryBaseUrl: webUrl().optional(),
    identifier: z.string().min(1).max(500),
    version: z
      .string()
      .min(1)
      .max(255)
      .refine(isPinnedVersion, 'must be a specific version, not a range or "latest"')
      .optional(),
    runtimeHint: z.string().max(50).optional(),
    transport,
    runtimeArguments: z.array(argument).optional(),
    packageArguments: z.array(argument).optional(),
    environmentVariables: z.array(keyValue).optional(),
    fileSha256: z
      .string()
      .regex(/^[a-f0-9]{64}$/)
      .optional(),
  });
  const remote = httpTransport.extend({ variables: z.record(z.string(), input).optional() });
  const serverJson = z.object({
    $schema: webUrl().optional(),
    name: z
      .string()
      .min(3)
      .max(200)
      .regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/, 'must be reverse-DNS "namespace/name" with exactly one slash'),
    title: z.string().min(1).max(100).optional(),
    description: z.string().min(1).max(100),
    version: z.string().min(1).max(255).refine(isPinnedVersion, 'must be a specific version, not a range or "latest"'),
    websiteUrl: webUrl().optional(),
    repository: z
      .object({ url: webUrl(), source: z.string().min(1), id: z.string().optional(), subfolder: z.string().optional() })
      .optional(),
    icons: z
      .array(
        z.object({
          src: webUrl(255),
          mimeType: z.string().optional(),
          sizes: z.array(z.string().regex(/^(\d+x\d+|any)$/)).optional(),
          theme: z.enum(['light', 'dark']).optional(),
        }),
      )
      .optional(),
    packages: z.array(pkg).optional(),
    remotes: z.array(remote).optional(),
    _meta: z.record(z.string(), z.unknown()).optional(),
  });
  // Checked for forbidden characters, then its text in NFC, as every other write's text (fields.ts).
  const checked = <S extends z.ZodType>(schema: S) =>
    schema
      .superRefine((doc, ctx) =>
        checkCharacters(doc, [], (path, message) => ctx.addIssue({ code: 'custom', path, message })),
      )
      .transform((doc) => inNfc(doc) as z.output<S>);
  return {
    /** A server.json as the registry accepts it (version required). */
    serverJson: checked(serverJson),
    /** Our seed record: the same shape, version left out where it is not known. */
    seedRecord: checked(serverJson.partial({ version: true })),
  };
}

const schemas = /* @__PURE__ */ buildSchemas();
export const serverJsonSchema = schemas.serverJson;
export const mcpSeedRecordSchema = schemas.seedRecord;
