import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// A plain single-page app: the api serves dist/ on the console's own origin under a strict CSP (docs/operations.md,
// The console), so nothing may be inlined: every script and stylesheet is a file under assets/.
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
