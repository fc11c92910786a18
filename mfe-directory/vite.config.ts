import { remoteConfig } from '@aitools/platform/vite';

export default remoteConfig({
  name: 'directory',
  root: import.meta.dirname,
  exposes: {
    './Home': './src/routes/Home.tsx',
    './ToolDetail': './src/routes/ToolDetail.tsx',
  },
});
