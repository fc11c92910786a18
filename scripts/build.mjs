// npm run build: install what is missing, build the shell and the server, release every remote whose sources changed.
import { ensureApiBuild, ensureInstall, ensurePnpm, ensureReleases, ensureShellBuild } from './lib.mjs';

ensurePnpm();
ensureInstall();
ensureShellBuild();
ensureApiBuild();
ensureReleases();
