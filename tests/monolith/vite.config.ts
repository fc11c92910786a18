/**
 * The monolith build: the shell and all four remotes bundled together by Vite, no federation. Same sources, same
 * server render; only the browser code differs. Used only by the benchmark (`serveMonolith` in ./serve.ts).
 * Build: cd tests && pnpm exec vite build --config monolith/vite.config.ts --configLoader runner
 */
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { routerFacade, sharedVersionsDefine } from '@aitools/platform/vite';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export const MONOLITH_BASE = '/monolith/';
export const MONOLITH_OUT_DIR = here('../../tests/.monolith');

export default defineConfig({
  root: here('../../shell'),
  base: MONOLITH_BASE,
  define: sharedVersionsDefine(here('../../shell')),
  plugins: [
    // The router as the federated builds have it (the platform's facade), so the column prices federation alone.
    routerFacade(),
    react(),
    {
      name: 'monolith-federation',
      enforce: 'pre',
      resolveId: (id) => (id === '__federation__' ? here('./federation.ts') : null),
    },
  ],
  build: {
    outDir: MONOLITH_OUT_DIR,
    emptyOutDir: true,
    target: 'esnext',
    manifest: true,
    modulePreload: false,
    rollupOptions: { input: here('../../shell/src/main.tsx') },
  },
  logLevel: 'warn',
});
