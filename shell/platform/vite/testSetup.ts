import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

afterEach(() => {
  cleanup();
  // Build-time tests (vite/*.test.ts) run in node, without a window.
  if (typeof window !== 'undefined') window.localStorage.clear();
});
