import { defineConfig } from 'vitest/config';

// Release-store tests build and spawn processes: on a busy 2-core machine they need more than vitest's 5 s default.
export default defineConfig({ test: { environment: 'node', include: ['src/**/*.test.ts'], testTimeout: 20_000 } });
