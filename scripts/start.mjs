// npm start: install what is missing, build, and serve the whole site on SQLite with seed data (scripts/serve.mjs).
import './runtime.mjs'; // first: on an older Node it runs this script again on the project's Node
import './build.mjs';
import './serve.mjs';
