// npm start: install what is missing, build, and serve the whole site on SQLite with seed data.
import './runtime.mjs'; // first: on an older Node it runs this script again on the project's Node
import { log, run } from './lib.mjs';
import './build.mjs';

log(`serving at http://localhost:${process.env.PORT ?? 8080}`);
run('pnpm', ['--filter', '@aitools/api', 'serve']);
