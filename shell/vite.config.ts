import { defineConfig } from 'vite';
import { hostFederation } from '@aitools/platform/vite';

/** The host. Its client build goes to dist/client; `vite build --ssr` builds src/entry-server.tsx to dist/server. */
export default defineConfig(({ isSsrBuild }) =>
  isSsrBuild
    ? {
        plugins: hostFederation({ ssr: true, root: import.meta.dirname }),
        build: { target: 'node24', outDir: 'dist/server', emptyOutDir: true },
      }
    : {
        plugins: hostFederation({ ssr: false, root: import.meta.dirname }),
        build: { outDir: 'dist/client', emptyOutDir: true, target: 'esnext', modulePreload: false, manifest: true },
      },
);
