// A small MCP server for the inspector's tests, written with the official SDK: two tools, a prompt, a resource.
// Its env_names tool describes the environment it was given, so a test can see what reached it.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'test-working', version: '1.2.3' });
server.registerTool(
  'add_numbers',
  {
    title: 'Add numbers',
    description: 'Adds two numbers',
    inputSchema: {
      a: z.number().describe('First number'),
      b: z.number().describe('Second number'),
      note: z.string().optional().describe('Kept for the log'),
    },
  },
  async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
);
server.registerTool(
  'env_names',
  { description: `Environment: ${Object.keys(process.env).sort().join(',')} HOME=${process.env.HOME}` },
  async () => ({ content: [] }),
);
server.registerPrompt('greet', { description: 'Greets someone', argsSchema: { who: z.string() } }, ({ who }) => ({
  messages: [{ role: 'user', content: { type: 'text', text: `Hello ${who}` } }],
}));
server.registerResource(
  'readme',
  'test://readme',
  { description: 'The read-me', mimeType: 'text/plain' },
  async (uri) => ({ contents: [{ uri: uri.href, text: 'hi' }] }),
);
if (process.argv.includes('--junk')) process.stdout.write('Starting test server v1.2.3...\nnot json either {\n');
await server.connect(new StdioServerTransport());
if (process.argv.includes('--junk')) setInterval(() => process.stdout.write('tick\n'), 5);
