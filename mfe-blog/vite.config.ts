import { remoteConfig } from '@aitools/platform/vite';

export default remoteConfig({
  name: 'blog',
  root: import.meta.dirname,
  exposes: {
    './BlogList': './src/routes/BlogList.tsx',
    './BlogPost': './src/routes/BlogPost.tsx',
  },
});
