// The smallest MCP server over stdio, with no dependency (the sandbox holds only the package itself): answers
// initialize, ping and tools/list. Copied into each test package before it is packed (npmRegistry.ts).
import { createInterface } from 'node:readline';

export function serve(name, tools) {
  const reply = (id, result) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);
  createInterface({ input: process.stdin }).on('line', (line) => {
    let m;
    try {
      m = JSON.parse(line);
    } catch {
      return;
    }
    if (m.id === undefined) return;
    if (m.method === 'initialize')
      reply(m.id, {
        protocolVersion: m.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name, version: '1.0.0' },
      });
    else if (m.method === 'tools/list')
      reply(m.id, { tools: tools.map((t) => ({ inputSchema: { type: 'object', properties: {} }, ...t })) });
    else if (m.method === 'ping') reply(m.id, {});
    else
      process.stdout.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } })}\n`,
      );
  });
}
