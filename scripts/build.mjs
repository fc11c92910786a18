// npm run build: install what is missing, build the shell, the console and the server, release every remote whose
// sources changed.
import './runtime.mjs'; // first: on an older Node it runs this script again on the project's Node
import {
  ensureApiBuild,
  ensureConsoleBuild,
  ensureInstall,
  ensurePnpm,
  ensureReleases,
  ensureShellBuild,
} from './lib.mjs';

ensurePnpm();
ensureInstall();
ensureShellBuild();
ensureConsoleBuild();
ensureApiBuild();
ensureReleases();
