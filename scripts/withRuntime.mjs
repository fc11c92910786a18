// `node scripts/withRuntime.mjs <command> [args...]`: runs a command (the root package's CLIs) on the project's Node
// (scripts/runtime.mjs), so `pnpm release`, `pnpm moderate` and the rest run on it whatever Node started pnpm.
import './runtime.mjs';
import { spawnSync } from 'node:child_process';

const [cmd, ...args] = process.argv.slice(2);
const r = spawnSync(cmd, args, { stdio: 'inherit' });
if (r.error) console.error(`✖ ${cmd}: ${r.error.message}`);
process.exit(r.status ?? 1);
