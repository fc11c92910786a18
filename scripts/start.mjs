// npm start: install what is missing, build, and serve the whole site on SQLite with seed data.
import './runtime.mjs'; // first: on an older Node it runs this script again on the project's Node
import { log, run } from './lib.mjs';
import './build.mjs';

log(
  `serving the site at http://localhost:${process.env.PORT ?? 8080} and the operator console at ` +
    `http://localhost:${process.env.CONSOLE_PORT ?? 8081} (docs/operations.md, "The console")`,
);
run('pnpm', ['--filter', '@aitools/api', 'serve']);
