// @vitest-environment node
/**
 * Every VS Code snippet (the .vscode/mcp.json document and the vscode:mcp/install link's entry), for every seeded
 * server, both systems, with and without the optional settings, against the MCP configuration schema VS Code
 * publishes (schemas/vscode-mcp.schema.json says where it comes from).
 */
import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { ServerJson } from '@aitools/contracts/mcp';
import seed from '../../../../api/data/mcp-servers.json';
import schema from './schemas/vscode-mcp.schema.json';
import { installSnippets, serverKey, type Os } from '@aitools/contracts/installSnippets';

const records = seed as unknown as Record<string, ServerJson>;
// ajv-formats is CommonJS: its default export arrives wrapped when imported from ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;

// strictTypes off: the published schema leaves `type: object` implied beside some additionalProperties.
const ajv = new Ajv({ allErrors: true, strictTypes: false });
addFormats(ajv);
// VS Code's own annotations for its JSON editor: known, and no constraint.
ajv.addKeyword({ keyword: 'allowComments' });
ajv.addKeyword({ keyword: 'allowTrailingCommas' });
ajv.addKeyword({ keyword: 'enumDescriptions' });
const validate = ajv.compile(schema);
const errorsOf = (doc: unknown) => (validate(doc) ? [] : ajv.errorsText(validate.errors, { separator: '; ' }));

/** The link carries one entry plus its name and inputs: as a document, it is `{ inputs, servers: { name: entry } }`. */
function linkDocument(href: string) {
  const { name, inputs, ...entry } = JSON.parse(decodeURIComponent(href.slice('vscode:mcp/install?'.length))) as {
    name: string;
    inputs?: unknown[];
  };
  return { ...(inputs ? { inputs } : {}), servers: { [name]: entry } };
}

describe('VS Code: every generated configuration passes the published schema', () => {
  it('accepts the documents and link entries of every seeded server', () => {
    const failures: string[] = [];
    let checked = 0;
    for (const slug of Object.keys(records)) {
      for (const os of ['posix', 'windows'] as Os[]) {
        for (const s of installSnippets(records[slug], serverKey(slug), os).filter((x) => x.client === 'vscode')) {
          const docs = [
            JSON.parse(s.code),
            linkDocument(s.link!.href),
            ...(s.withOptional ? [JSON.parse(s.withOptional.code)] : []),
          ];
          for (const doc of docs) {
            checked++;
            const errors = errorsOf(doc);
            if (errors.length) failures.push(`${slug} (${os}): ${errors}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(150);
  });

  it('refuses what VS Code refuses (the check is not vacuous)', () => {
    expect(errorsOf({ servers: { x: { type: 'stdio', command: 'npx', url: 'https://example.com/mcp' } } })).not.toEqual(
      [],
    );
    expect(errorsOf({ servers: { x: { type: 'streamable-http', url: 'https://example.com/mcp' } } })).not.toEqual([]);
    expect(errorsOf({ servers: { x: { type: 'http', url: 'not a url' } } })).not.toEqual([]);
    expect(errorsOf({ mcpServers: {} })).not.toEqual([]);
    expect(errorsOf({ inputs: [{ type: 'promptString', id: 'k' }], servers: {} })).not.toEqual([]);
    expect(
      errorsOf({
        inputs: [{ type: 'promptString', id: 'k', description: 'Key', password: true }],
        servers: { x: { command: 'npx', env: { K: '${input:k}' } } },
      }),
    ).toEqual([]);
  });
});
