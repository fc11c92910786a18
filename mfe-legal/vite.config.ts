import { remoteConfig } from '@aitools/platform/vite';

export default remoteConfig({
  name: 'legal',
  root: import.meta.dirname,
  exposes: {
    './Privacy': './src/routes/Privacy.tsx',
    './Terms': './src/routes/Terms.tsx',
    './Cookies': './src/routes/Cookies.tsx',
  },
});
