// An MCP server for the inspector's tests that never answers: it starts a grandchild (printing its pid first, on
// stderr) and then waits forever, reading nothing. The inspector must time out and kill the whole group.
import { spawn } from 'node:child_process';

const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
process.stderr.write(`grandchild ${grandchild.pid}\n`);
setInterval(() => {}, 1000);
