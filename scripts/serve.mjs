// npm run serve: serve the site as built (npm start builds it first, then comes here): the site at PORT (8080) and
// the operator console at CONSOLE_PORT (8081), both said before the server starts. A port in use or any other
// start-up failure is the server's one line naming the setting to change, and a non-zero exit.
import './runtime.mjs'; // first: on an older Node it runs this script again on the project's Node
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { log, ROOT } from './lib.mjs';

// The console's default is the api's serve script's (CONSOLE_PORT=${CONSOLE_PORT-8081}): an empty value turns it off.
const consolePort = process.env.CONSOLE_PORT ?? '8081';
log(
  `serving the site at http://localhost:${process.env.PORT ?? 8080}` +
    (consolePort
      ? ` and the operator console at http://localhost:${consolePort} (docs/operations.md, "The console")`
      : ' (no operator console: CONSOLE_PORT is empty)'),
);
// The api's own serve script, run by the shell as pnpm would, without pnpm's lines about a failed run.
const api = join(ROOT, 'api');
const { serve } = JSON.parse(readFileSync(join(api, 'package.json'), 'utf8')).scripts;
const r = spawnSync('sh', ['-c', serve], { cwd: api, stdio: 'inherit' });
process.exit(r.status ?? 1);
