import { defineConfig } from 'vitest/config';
import { uiTestConfig } from './vite/vitestConfig';

export default defineConfig(uiTestConfig());
