// npm run build: install what is missing, build the shell, release every remote whose sources changed.
import { ensureInstall, ensurePnpm, ensureReleases, ensureShellBuild } from './lib.mjs';

ensurePnpm();
ensureInstall();
ensureShellBuild();
ensureReleases();
