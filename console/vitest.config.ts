import { defineConfig } from 'vitest/config';
import { uiTestConfig } from '@aitools/platform/vitest';

export default defineConfig(uiTestConfig());
