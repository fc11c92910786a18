// The production server as JavaScript: src/main.ts (and the module hooks it registers) bundled into dist/ with the
// workspace's TypeScript (the platform SDK, the contracts) compiled in; npm packages stay external, loaded from node_modules.
// The operator commands (release, moderate, registry) keep running from source through tsx.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
// @aitools/platform and @aitools/contracts ship TypeScript sources: bundled. Everything else (and the shell's built
// server) is external.
const bundled = ['@aitools/platform', '@aitools/contracts'];
const external = Object.keys(pkg.dependencies).filter((name) => !bundled.includes(name));

await build({
  absWorkingDir: import.meta.dirname,
  entryPoints: {
    main: 'src/main.ts',
    'ssr/sharedResolveHooks': 'src/ssr/sharedResolveHooks.ts',
    drawWorker: 'src/images/drawWorker.ts',
    meaningWorker: 'src/tools/meaning/meaningWorker.ts',
    seedCodes: 'src/seedCodes.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  external: [...external, ...external.map((name) => `${name}/*`)],
  sourcemap: true,
  logLevel: 'warning',
});

// The seed's codes for the search's meaning guess, made once here rather than at each server's first start
// (src/seedCodes.ts).
execFileSync(process.execPath, ['dist/seedCodes.js', 'dist/seed-codes.json'], {
  cwd: import.meta.dirname,
  stdio: 'inherit',
});
