import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import type { UserConfig } from 'vite';

/** Unit and component tests of a UI package: jsdom, React, Testing Library's cleanup. */
export function uiTestConfig(): UserConfig & { test: Record<string, unknown> } {
  return {
    plugins: [react()],
    test: {
      environment: 'jsdom',
      setupFiles: [fileURLToPath(new URL('./testSetup.ts', import.meta.url))],
      include: ['src/**/*.test.{ts,tsx}', 'vite/**/*.test.ts'],
      css: false,
    },
  };
}
